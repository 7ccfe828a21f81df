// The in-browser HTTP host without a browser: the worker core behind a line channel, the page's
// HTTP wire in front. The session runs over HTTP/1.1 bytes the core serialises from the pure
// handler, and the tap events read back as the same exchanges the Node server gives on the bridge.

import { describe, expect, it } from 'vitest';
import { exchangesOf } from '../../tests/support/http1-items.ts';
import { McpClient } from '../protocol/client.ts';
import { createHttpTapWire } from './http-tap-wire.ts';
import type { TapEvent } from './tap-protocol.ts';
import { workerChannel } from '../../tests/support/http-worker-wire.ts';

describe('mcp-http in the worker host', () => {
  it('serves a whole session as HTTP/1.1 bytes: 200 with a session id, 202, chunked SSE with progress, DELETE', async () => {
    const { channel, core } = workerChannel();
    const wire = createHttpTapWire('worker', channel, { origin: 'http://127.0.0.1:5173' });
    const events: TapEvent[] = [];
    wire.onTapEvent((event) => events.push(event));
    const closed = new Promise<string>((resolve) => wire.onClose(resolve));
    core.handle({ type: 'start', spec: { program: 'mcp-http', framing: 'ndjson', faults: [] } });

    const client = new McpClient(wire, { framing: 'ndjson', requestTimeoutMs: 5000 });
    await client.connect();
    const result = (await client.sendRequest('tools/call', { name: 'echo', arguments: { text: 'w' }, _meta: { progressToken: 1 } })) as { content: unknown };
    expect(result.content).toEqual([{ type: 'text', text: 'w' }]);
    const session = wire.sessionId;
    wire.end();
    expect(await closed).toMatch(/SIGTERM/);

    expect(events[0]).toMatchObject({ ev: 'spawn', argv: ['node', 'mcp-http.mjs', '--port=0'] });
    const exchanges = exchangesOf(events);
    const find = (line: string) => exchanges.find((exchange) => exchange.line === line)!;
    expect(find('POST initialize').response!.head.headers['mcp-session-id']).toBe(session);
    expect(find('POST notifications/initialized').response!.head).toMatchObject({ status: 202, headers: { 'content-length': '0' } });
    expect(find('POST tools/call').response!.head.headers).toMatchObject({ 'content-type': 'text/event-stream', 'transfer-encoding': 'chunked' });
    expect(find('POST tools/call').response!.body).toMatch(/notifications\/progress[\s\S]*"result"/);
    expect(find('DELETE').response!.head.status).toBe(200);
  });

  it('serves the feature demo when the spec asks for tools: features', async () => {
    const { channel, core } = workerChannel();
    const wire = createHttpTapWire('worker', channel, { origin: 'http://127.0.0.1:5173' });
    const events: TapEvent[] = [];
    wire.onTapEvent((event) => events.push(event));
    core.handle({ type: 'start', spec: { program: 'mcp-http', framing: 'ndjson', faults: [], tools: 'features' } });
    const client = new McpClient(wire, { framing: 'ndjson', requestTimeoutMs: 5000 });
    await client.connect();
    expect(await client.sendRequest('resources/read', { uri: 'demo://counter' })).toMatchObject({ contents: [{ text: 'count: 0' }] });
    wire.kill();
    expect(events[0]).toMatchObject({ ev: 'spawn', argv: ['node', 'mcp-http.mjs', '--port=0', '--tools=features'] });
  });

  it('refuses what it does not run, and writes to connections that are not open', () => {
    const { core, posted } = workerChannel();
    core.handle({ type: 'start', spec: { program: 'echo-server', framing: 'ndjson', faults: [] } });
    core.handle({ type: 'start', spec: { program: 'mcp-http', framing: 'ndjson', faults: ['char-length'] } });
    core.handle({ type: 'start', spec: { program: 'mcp-http', framing: 'ndjson', faults: [], auth: 'self' } });
    core.handle({ type: 'start', spec: { program: 'mcp-http', framing: 'ndjson', faults: [] } });
    core.handle({ cmd: 'write', conn: 9, b64: 'AA==' });
    core.handle({ cmd: 'connect', conn: 'x' });
    expect(posted.filter((event) => event.ev === 'error').map((event) => (event as { message: string }).message)).toEqual([
      expect.stringContaining('runs only mcp-http'),
      expect.stringContaining('char-length'),
      expect.stringContaining('needs Node (the local bridge or the WebContainer)'),
      'write to connection 9, which is not open',
      'malformed command',
    ]);
  });
});
