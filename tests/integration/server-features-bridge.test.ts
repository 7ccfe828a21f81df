// The feature demo (mcp-http --tools=features) on the bridge: a real Node server behind the relay
// tap, the page's own HTTP wire and McpClient in front. A resource update, a log level change,
// progress and a sampling request answered and refused all cross real loopback TCP, and the tap's
// bytes, read back as HTTP/1.1, carry each of them.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exchangesOf } from '../support/http1-items.ts';
import { McpClient, ServerRequestRefused, type ClientEvent } from '../../src/protocol/client.ts';
import type { HttpWire } from '../../src/runtime/http-tap-wire.ts';
import type { TapEvent } from '../../src/runtime/tap-protocol.ts';
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

describe('mcp-http --tools=features on the bridge', () => {
  it('subscribe → updated, setLevel filters logs, progress, sampling approved and refused: all over relayed TCP', async () => {
    bridge = await startTestBridge({ programsDir: programs.dir });
    const host = pageHost(bridge);
    const wire = (await host.start({ program: 'mcp-http', framing: 'ndjson', faults: [], tools: 'features' })) as HttpWire;
    const events: TapEvent[] = [];
    wire.onTapEvent((event) => events.push(event));
    const closed = new Promise<string>((resolve) => wire.onClose(resolve));

    let approve = true;
    const client = new McpClient(wire, {
      framing: 'ndjson',
      requestTimeoutMs: 10_000,
      capabilities: { sampling: {} },
      serverRequests: {
        'sampling/createMessage': async () => {
          if (!approve) throw new ServerRequestRefused(-1, 'User rejected sampling request');
          return { role: 'assistant', content: { type: 'text', text: 'yes' }, model: 'scripted-model', stopReason: 'endTurn' };
        },
      },
    });
    const notifications: { method: string; params: unknown }[] = [];
    client.on((event: ClientEvent) => {
      if (event.type === 'notification') notifications.push({ method: event.message.method, params: event.message.params });
    });
    await client.connect();
    const call = (name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) =>
      client.sendRequest('tools/call', { name, arguments: args, ...(meta ? { _meta: meta } : {}) }) as Promise<{ content: { text: string }[]; isError?: boolean }>;

    await client.sendRequest('resources/subscribe', { uri: 'demo://counter' });
    await call('increment');
    await waitUntil(() => notifications.some((message) => message.method === 'notifications/resources/updated'), 5_000, 'the update notification');
    expect(await client.sendRequest('resources/read', { uri: 'demo://counter' })).toMatchObject({ contents: [{ text: 'count: 1' }] });

    await client.sendRequest('logging/setLevel', { level: 'error' });
    await call('log_levels');
    expect(notifications.filter((message) => message.method === 'notifications/message').map((message) => (message.params as { level: string }).level)).toEqual(['error']);

    expect((await call('slow_count', { steps: 2 }, { progressToken: 7 })).content[0]!.text).toBe('counted to 2');
    expect(notifications.filter((message) => message.method === 'notifications/progress').map((message) => (message.params as { progress: number }).progress)).toEqual([1, 2]);

    expect((await call('ask_model', { question: 'ok?' })).content[0]!.text).toBe('scripted-model answered: yes');
    approve = false;
    const refused = await call('ask_model', { question: 'again?' });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toContain('User rejected sampling request');

    wire.end();
    await closed;
    expect(events[0]).toMatchObject({ ev: 'spawn', argv: expect.arrayContaining(['--tools=features']) });
    const exchanges = exchangesOf(events);
    // The update came on the standalone GET stream, as an SSE event in a chunk of its own.
    expect(exchanges.find((exchange) => exchange.line === 'GET')!.response!.body).toContain('"method":"notifications/resources/updated","params":{"uri":"demo://counter"}');
    // The sampling request went out on the tools/call stream; each answer is a POST of its own, taken with 202.
    const asks = exchanges.filter((exchange) => exchange.line === 'POST tools/call' && exchange.request.body.includes('ask_model'));
    expect(asks.map((exchange) => exchange.response!.body.includes('"method":"sampling/createMessage"'))).toEqual([true, true]);
    const answers = exchanges.filter((exchange) => exchange.line === 'POST' && /"result"|"error"/.test(exchange.request.body));
    expect(answers.map((exchange) => [exchange.response!.head.status, /"code":-1,"message":"User rejected sampling request"/.test(exchange.request.body)])).toEqual([
      [202, false],
      [202, true],
    ]);
    await waitUntil(() => bridge.bridge.activeProcesses === 0, 5_000, 'the server to be gone');
  });
});
