import { describe, expect, it } from 'vitest';
import { McpClient, McpRpcError } from '../client.ts';
import type { JsonRpcMessage } from '../jsonrpc.ts';
import { HttpClientPipe, TRANSPORT_ERROR } from './client-pipe.ts';

/** A pipe whose "server" answers ping itself, and whose send() throws for anything named "boom". */
class TestPipe extends HttpClientPipe {
  readonly sent: JsonRpcMessage[] = [];
  closings = 0;
  reported: string[] = [];

  constructor() {
    super((detail) => this.reported.push(detail));
  }

  protected async send(message: JsonRpcMessage): Promise<void> {
    this.sent.push(message);
    if ('method' in message && message.method === 'boom') throw new Error('boom failed');
    if ('method' in message && 'id' in message && message.method === 'initialize') {
      this.receive({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } });
    }
  }

  protected closing(): void {
    this.closings++;
  }

  /** ask() from outside, for the test. */
  askPing(): Promise<JsonRpcMessage> {
    return this.ask({ jsonrpc: '2.0', method: 'initialize', params: {} });
  }
}

describe('HttpClientPipe', () => {
  it('turns each NDJSON line McpClient writes into one send(), and hands answers back to it', async () => {
    const pipe = new TestPipe();
    const client = new McpClient(pipe, { framing: 'ndjson', requestTimeoutMs: 1000 });
    await client.connect();
    expect(pipe.sent.map((message) => ('method' in message ? message.method : 'answer'))).toEqual(['initialize', 'notifications/initialized']);
  });

  it('a send() that throws answers its request with a -32000 error, so the caller does not wait', async () => {
    const pipe = new TestPipe();
    const client = new McpClient(pipe, { framing: 'ndjson', requestTimeoutMs: 60_000 });
    await client.connect();
    const error = await client.sendRequest('boom').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpRpcError);
    expect((error as McpRpcError).code).toBe(TRANSPORT_ERROR);
  });

  it('answers to ask() are kept from the client; end() calls closing() and the close listeners once', async () => {
    const pipe = new TestPipe();
    const lines: string[] = [];
    pipe.onData((chunk) => lines.push(new TextDecoder().decode(chunk)));
    const closes: string[] = [];
    pipe.onClose((reason) => closes.push(reason));
    expect(await pipe.askPing()).toMatchObject({ id: 'http-transport-1', result: { protocolVersion: '2025-11-25' } });
    expect(lines).toEqual([]);
    pipe.end();
    pipe.end();
    expect(pipe.closings).toBe(1);
    expect(closes).toEqual(['closed by the client']);
    expect(() => pipe.write(new TextEncoder().encode('{}\n'))).toThrow(/closed/);
  });
});
