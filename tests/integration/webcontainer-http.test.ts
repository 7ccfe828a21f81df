// mcp-http in the WebContainer host, against the faithful fake (a hostile pseudo-terminal around
// the real tap and the real server): the tap runs with --relay-http inside the "container", the
// page's HTTP wire speaks HTTP/1.1 through it, and the tap's events read back as the session.

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildNodePrograms } from '../../scripts/build-node-programs.ts';
import { runHttpCard } from '../../src/app/failure-lab/http-cards.ts';
import { IMPATIENT_RESUMES_BEFORE_HOLD } from '../../src/protocol/http/event-stream.ts';
import { McpClient } from '../../src/protocol/client.ts';
import type { HttpWire } from '../../src/runtime/http-tap-wire.ts';
import type { TapEvent } from '../../src/runtime/tap-protocol.ts';
import { createWebContainerHost, type WebContainerFileName } from '../../src/runtime/webcontainer-host.ts';
import { createFakeBoot } from '../fakes/fake-webcontainer.ts';
import { exchangesOf } from '../support/http1-items.ts';

const GENERATED = resolve(import.meta.dirname, '../../public/generated');

beforeAll(async () => {
  // tests/global-setup.ts built them fresh before any file ran. Rebuilding here would rewrite
  // public/generated/*.mjs while other files spawn them (a half-written echo-server.mjs exits).
  if (!existsSync(resolve(GENERATED, 'tap.mjs')) || !existsSync(resolve(GENERATED, 'mcp-http.mjs'))) await buildNodePrograms();
});

const fakes: ReturnType<typeof createFakeBoot>[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.teardown()));
});

describe('mcp-http in the WebContainer (fake)', () => {
  it('runs a whole session through the pseudo-terminal with every HTTP byte in the tap events', async () => {
    const fake = createFakeBoot({ terminal: { seed: 7, echo: true } });
    fakes.push(fake);
    const host = createWebContainerHost({ boot: fake.boot, fetchProgram: (name: WebContainerFileName) => readFile(resolve(GENERATED, `${name}.mjs`), 'utf8'), isolated: () => true });
    const wire = (await host.start({ program: 'mcp-http', framing: 'ndjson', faults: [] })) as HttpWire;
    const events: TapEvent[] = [];
    wire.onTapEvent((event) => events.push(event));
    const closed = new Promise<string>((resolve) => wire.onClose(resolve));

    const client = new McpClient(wire, { framing: 'ndjson', requestTimeoutMs: 10_000 });
    await client.connect();
    const result = (await client.sendRequest('tools/call', { name: 'echo', arguments: { text: '你好 👋' }, _meta: { progressToken: 'wc' } })) as { content: unknown };
    expect(result.content).toEqual([{ type: 'text', text: '你好 👋' }]);
    const session = wire.sessionId;
    wire.end();
    await closed;

    const exchanges = exchangesOf(events);
    const find = (line: string) => exchanges.find((exchange) => exchange.line === line)!;
    expect(find('POST initialize').response!.head.headers['mcp-session-id']).toBe(session);
    expect(find('POST notifications/initialized').response!.head.status).toBe(202);
    expect(find('POST tools/call').response!.head.headers).toMatchObject({ 'transfer-encoding': 'chunked' });
    expect(find('POST tools/call').response!.body).toMatch(/notifications\/progress[\s\S]*你好 👋/);
    expect(find('DELETE').response!.head.status).toBe(200);
  });

  it('failure card 6: with close-streams-early the real server in the container ends the POST stream after its priming event; the client that ignores retry comes back N times, the one that waits once', async () => {
    const fake = createFakeBoot({ terminal: { seed: 11, echo: true } });
    fakes.push(fake);
    const host = createWebContainerHost({ boot: fake.boot, fetchProgram: (name: WebContainerFileName) => readFile(resolve(GENERATED, `${name}.mjs`), 'utf8'), isolated: () => true });
    const argvs: string[][] = [];
    const { exchanges, polls } = await runHttpCard('ignores-retry', {
      origin: 'http://localhost:5173',
      start: async (faults) => {
        const wire = (await host.start({ program: 'mcp-http', framing: 'ndjson', faults: [...faults] })) as HttpWire;
        wire.onTapEvent((event) => {
          if (event.ev === 'spawn') argvs.push(event.argv);
        });
        return wire;
      },
    });
    expect(argvs.some((argv) => argv.includes('--fault=close-streams-early'))).toBe(true);
    // The POST, the impatient client's first and last reconnect: the call asks the server to hold its
    // stream on its Nth resume, so the storm is N reconnects on any machine.
    expect(exchanges.map((exchange) => `${exchange.role} ${exchange.status}`).join(', ')).toBe('setup 200, setup 202, symptom 200, symptom 200, symptom 200, recovery 200, recovery 200');
    expect(exchanges[2]!.body).toBe('id: 1/0\nretry: 1000\ndata: \n\n');
    expect(polls!.impatient).toEqual({ retryMs: 1000, waits: Array(IMPATIENT_RESUMES_BEFORE_HOLD).fill(0), reconnects: IMPATIENT_RESUMES_BEFORE_HOLD, gotResult: true });
    expect(polls!.patient).toEqual({ retryMs: 1000, waits: [1000], reconnects: 1, gotResult: true });
  });
});
