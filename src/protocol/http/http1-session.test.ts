// A whole Streamable HTTP session in exact bytes: McpClient over HttpClientTransport, whose
// exchange is the page's own HTTP/1.1 client (http1-exchange.ts), over in-memory connections cut
// into random pieces, to the pure handler served by http1-server.ts. The bytes both ways are
// recorded and read back, as the inspector will read them.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutAt } from '../../../tests/support/byte-chunks.ts';
import { concatBytes } from '../inspect/concat-bytes.ts';
import { messagesOf, readAll } from '../../../tests/support/http1-items.ts';
import { McpClient, type ClientEvent } from '../client.ts';
import { createEchoTools, ECHO_SERVER_INFO } from '../echo-tools.ts';
import { McpServer } from '../server.ts';
import { withToolProgress } from '../tool-progress.ts';
import { connectionPair, type ByteConnection } from './byte-connection.ts';
import { HttpClientTransport, HTTP_CLIENT_FRAMING } from './client-transport.ts';
import { http1Exchange } from './http1-exchange.ts';
import { serveHttp1Connection } from './http1-server.ts';
import { createHttpHandler } from './server-handler.ts';

interface Recorded {
  c2s: Uint8Array[];
  s2c: Uint8Array[];
}

function setup(cuts: number[] = []) {
  const handler = createHttpHandler({
    createServer: () => withToolProgress(new McpServer({ serverInfo: ECHO_SERVER_INFO, tools: createEchoTools() })),
  });
  const connections: Recorded[] = [];
  const cut = (bytes: Uint8Array) => cutAt(bytes, cuts).filter((piece) => piece.length > 0);
  const open = async (): Promise<ByteConnection> => {
    const [client, server] = connectionPair(cut);
    const recorded: Recorded = { c2s: [], s2c: [] };
    connections.push(recorded);
    server.onData((chunk) => recorded.c2s.push(chunk));
    client.onData((chunk) => recorded.s2c.push(chunk));
    serveHttp1Connection(handler, server);
    return client;
  };
  const transport = new HttpClientTransport({ url: 'http://127.0.0.1/mcp', exchange: http1Exchange(open, { origin: 'http://127.0.0.1:5173' }), listen: true });
  const client = new McpClient(transport, { framing: HTTP_CLIENT_FRAMING, requestTimeoutMs: 5000 });
  const events: ClientEvent[] = [];
  client.on((event) => events.push(event));
  return { client, transport, connections, events, handler };
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('a Streamable HTTP session over HTTP/1.1 bytes', () => {
  it('initialize → 200 with a session id, initialized → 202, tools/call with a progress token → SSE, DELETE', async () => {
    const { client, transport, connections, events, handler } = setup();
    await client.connect();
    const result = (await client.sendRequest('tools/call', { name: 'echo', arguments: { text: '你好' }, _meta: { progressToken: 'p1' } })) as { content: unknown };
    expect(result.content).toEqual([{ type: 'text', text: '你好' }]);
    expect(events.some((event) => event.type === 'notification' && event.message.method === 'notifications/progress')).toBe(true);
    transport.end();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(handler.sessionCount).toBe(0);

    const requests = connections.map((connection) => messagesOf(readAll('request', [concatBytes(connection.c2s)])));
    const responses = connections.map((connection) => messagesOf(readAll('response', [concatBytes(connection.s2c)], true)));
    const lines = requests.map(([request]) => (request!.head as { method: string }).method + ' ' + (JSON.parse(request!.body || '{}') as { method?: string }).method);
    expect(lines).toContain('POST initialize');
    const statusOf = (method: string) => responses[lines.indexOf(method)]![0]!.head as { status: number; headers: Record<string, string> };
    expect(statusOf('POST initialize').headers['mcp-session-id']).toBe(transport.session ?? statusOf('POST initialize').headers['mcp-session-id']);
    expect(statusOf('POST notifications/initialized').status).toBe(202);
    const call = statusOf('POST tools/call');
    expect(call.headers).toMatchObject({ 'content-type': 'text/event-stream', 'transfer-encoding': 'chunked' });
    expect(responses[lines.indexOf('POST tools/call')]![0]!.body).toMatch(/notifications\/progress[\s\S]*"result"/);
    expect(statusOf('DELETE undefined').status).toBe(200);
    // The request bytes name MCP's headers the way the specification spells them.
    const second = text(concatBytes(connections[lines.indexOf('POST notifications/initialized')]!.c2s));
    expect(second).toMatch(/\r\nMcp-Session-Id: [\x21-\x7e]+\r\n/);
    expect(second).toContain('\r\nMCP-Protocol-Version: 2025-11-25\r\n');
    expect(second).toContain('\r\nOrigin: http://127.0.0.1:5173\r\n');
  });

  it('works the same however the network cuts the bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: 400 }), { maxLength: 12 }), async (cuts) => {
        const { client, transport } = setup(cuts);
        await client.connect();
        const result = await client.callTool('echo', { text: 'cut 你好 anywhere' });
        expect(result.content).toEqual([{ type: 'text', text: 'cut 你好 anywhere' }]);
        transport.end();
      }),
      { numRuns: 20 },
    );
  });

  it('answers bytes that are not HTTP with 400 and closes', async () => {
    const handler = createHttpHandler({ createServer: () => new McpServer({ serverInfo: ECHO_SERVER_INFO, tools: [] }) });
    const [client, server] = connectionPair();
    const received: Uint8Array[] = [];
    let ended = false;
    client.onData((chunk) => received.push(chunk));
    client.onEnd(() => (ended = true));
    serveHttp1Connection(handler, server);
    client.write(new TextEncoder().encode('Content-Length: 2\r\n\r\n{}'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(text(concatBytes(received))).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(ended).toBe(true);
  });
});
