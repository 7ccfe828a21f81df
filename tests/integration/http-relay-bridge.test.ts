// The HTTP echo server on the bridge, through the relay tap: the page's own wire (createHttpTapWire
// via the bridge host) runs a whole Streamable HTTP session over relayed loopback TCP, and the
// tap's c2s / s2c events, read back as HTTP/1.1, are that session byte for byte.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exchangesOf } from '../support/http1-items.ts';
import { McpClient, type ClientEvent } from '../../src/protocol/client.ts';
import type { HttpWire } from '../../src/runtime/http-tap-wire.ts';
import type { TapEvent } from '../../src/runtime/tap-protocol.ts';
import { HTTP_CARD_IDS, runHttpCard, type HttpCardResult } from '../../src/app/failure-lab/http-cards.ts';
import { IMPATIENT_RESUMES_BEFORE_HOLD } from '../../src/protocol/http/event-stream.ts';
import { buildProgramsForTest, pageHost, startTestBridge, waitUntil, type TestBridge } from './ws-tap-transport.ts';

let programs: { dir: string; remove(): Promise<void> };
let bridge: TestBridge;

beforeAll(async () => {
  programs = await buildProgramsForTest();
});
afterAll(async () => {
  await programs.remove();
});
afterEach(async () => {
  await bridge?.close();
  expect(bridge.bridge.activeProcesses).toBe(0);
});

/** The `ws` WebSocket with the Origin a browser would send for our page. */
describe('mcp-http on the bridge, through the relay tap', () => {
  it('runs initialize, initialized → 202, tools/call over SSE with progress, DELETE; the tap saw every byte', async () => {
    bridge = await startTestBridge({ programsDir: programs.dir });
    const host = pageHost(bridge);
    const wire = (await host.start({ program: 'mcp-http', framing: 'ndjson', faults: [] })) as HttpWire;
    const events: TapEvent[] = [];
    wire.onTapEvent((event) => events.push(event));
    const closed = new Promise<string>((resolve) => wire.onClose(resolve));

    const client = new McpClient(wire, { framing: 'ndjson', requestTimeoutMs: 10_000 });
    const seen: ClientEvent[] = [];
    client.on((event) => seen.push(event));
    await client.connect();
    const result = (await client.sendRequest('tools/call', { name: 'echo', arguments: { text: '你好' }, _meta: { progressToken: 'p' } })) as { content: unknown };
    expect(result.content).toEqual([{ type: 'text', text: '你好' }]);
    expect(seen.some((event) => event.type === 'notification' && event.message.method === 'notifications/progress')).toBe(true);
    const session = wire.sessionId;
    expect(session).toMatch(/^[\x21-\x7e]+$/);
    wire.end();
    expect(await closed).toMatch(/signal|exited/);

    expect(events[0]?.ev).toBe('spawn');
    const exchanges = exchangesOf(events);
    const find = (line: string) => exchanges.find((exchange) => exchange.line === line)!;
    expect(find('POST initialize').response!.head.headers['mcp-session-id']).toBe(session);
    expect(find('POST notifications/initialized').response!.head.status).toBe(202);
    expect(find('POST notifications/initialized').request.headers).toMatchObject({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25', origin: bridge.origin });
    const call = find('POST tools/call').response!;
    expect(call.head.headers).toMatchObject({ 'content-type': 'text/event-stream', 'transfer-encoding': 'chunked' });
    expect(call.body).toMatch(/notifications\/progress[\s\S]*"result"/);
    expect(find('GET').response!.head.status).toBe(200); // the standalone stream
    expect(find('DELETE').response!.head.status).toBe(200);
    await waitUntil(() => bridge.bridge.activeProcesses === 0, 5_000, 'the server to be gone');
  });

  it('the failure lab HTTP cards show their symptoms over real relayed TCP to the Node server', async () => {
    bridge = await startTestBridge({ programsDir: programs.dir });
    const host = pageHost(bridge);
    const statuses: Record<string, string> = {};
    let proxied: number[] = [];
    let direct: number[] = [];
    let polls: HttpCardResult['polls'];
    const argvs: string[][] = [];
    for (const id of HTTP_CARD_IDS) {
      const result = await runHttpCard(id, {
        origin: bridge.origin,
        start: async (faults) => {
          const wire = (await host.start({ program: 'mcp-http', framing: 'ndjson', faults: [...faults] })) as HttpWire;
          // The tap reports the argv it spawned: the fault reached the real Node server's command line.
          wire.onTapEvent((event) => {
            if (event.ev === 'spawn') argvs.push(event.argv);
          });
          return wire;
        },
      });
      const { exchanges } = result;
      if (id === 'ignores-retry') polls = result.polls;
      statuses[id] = exchanges.map((exchange) => `${exchange.role} ${exchange.status}`).join(', ');
      if (id === 'buffering-proxy') {
        direct = exchanges.find((exchange) => exchange.role === 'baseline')!.pieces;
        proxied = exchanges.find((exchange) => exchange.role === 'symptom')!.pieces;
      }
    }
    const { 'ignores-retry': ignoresRetry, ...others } = statuses;
    expect(others).toEqual({
      'missing-session': 'setup 200, symptom 400',
      'stale-session': 'setup 200, symptom 404, recovery 200',
      'foreign-origin': 'symptom 403',
      'missing-accept': 'symptom 406',
      'buffering-proxy': 'setup 200, setup 202, baseline 200, symptom 200',
    });
    // Each call asks the server to hold its stream on its Nth (impatient) or first (patient) resume,
    // so the card shows the POST, the first and the last (Nth) reconnect on any machine.
    expect(ignoresRetry).toBe('setup 200, setup 202, symptom 200, symptom 200, symptom 200, recovery 200, recovery 200');
    expect(argvs.filter((argv) => argv.includes('--fault=close-streams-early'))).toHaveLength(1);
    // Real time, real TCP: the impatient client came back without waiting; the patient one waited retry once and got the result.
    expect(polls!.impatient).toEqual({ retryMs: 1000, waits: Array(IMPATIENT_RESUMES_BEFORE_HOLD).fill(0), reconnects: IMPATIENT_RESUMES_BEFORE_HOLD, gotResult: true });
    expect(polls!.patient).toEqual({ retryMs: 1000, waits: [1000], reconnects: 1, gotResult: true });
    // Over real TCP: the progress event came in a piece before the result's; through the proxy, one piece.
    expect(direct.slice(0, -1).some((count) => count > 0)).toBe(true);
    expect(proxied).toHaveLength(1);
    await waitUntil(() => bridge.bridge.activeProcesses === 0, 5_000, 'the servers to be gone');
  });
});
