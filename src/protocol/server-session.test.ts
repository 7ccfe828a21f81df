import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FramingName } from './framing/types.ts';
import type { FaultName } from './faults.ts';
import { encodeNotification, encodeRequest, type JsonRpcId } from './jsonrpc.ts';
import { LATEST_PROTOCOL_VERSION } from './mcp.ts';
import type { ServerTool } from './server.ts';
import { createServerSession, type ServerSessionOptions } from './server-session.ts';

// The expected wire format is written out by hand here rather than taken from the framing
// module, so these tests also pin down the exact bytes the session puts on stdout.

const utf8 = new TextEncoder();
const decodeUtf8 = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function frame(framing: FramingName, message: unknown): Uint8Array {
  const body = JSON.stringify(message);
  return utf8.encode(framing === 'ndjson' ? `${body}\n` : `Content-Length: ${utf8.encode(body).length}\r\n\r\n${body}`);
}

function concat(pieces: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/** Reads correctly framed stdout back into messages; throws on anything else on stdout. */
function parseStdout(framing: FramingName, bytes: Uint8Array): unknown[] {
  if (framing === 'ndjson') {
    const text = decodeUtf8(bytes);
    expect(text === '' || text.endsWith('\n')).toBe(true);
    return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
  }
  const messages: unknown[] = [];
  let at = 0;
  while (at < bytes.length) {
    const headerEnd = findCrlfCrlf(bytes, at);
    const header = decodeUtf8(bytes.slice(at, headerEnd));
    const match = /^Content-Length: (\d+)$/.exec(header);
    if (match === null) throw new Error(`not a header: ${JSON.stringify(header)}`);
    const start = headerEnd + 4;
    const end = start + Number(match[1]);
    messages.push(JSON.parse(decodeUtf8(bytes.slice(start, end))));
    at = end;
  }
  return messages;
}

function findCrlfCrlf(bytes: Uint8Array, from: number): number {
  for (let i = from; i + 3 < bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) return i;
  }
  throw new Error('no header end');
}

/** A deterministic stand-in for Math.random (a small linear congruential generator). */
function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function harness(framing: FramingName, faults: readonly FaultName[] = [], extra: Partial<ServerSessionOptions> = {}) {
  const writes: Uint8Array[] = [];
  const logs: string[] = [];
  const session = createServerSession({
    framing,
    faults,
    write: (bytes) => writes.push(bytes),
    log: (line) => logs.push(line),
    random: lcg(7),
    ...extra,
  });
  return {
    session,
    writes,
    logs,
    send: (message: unknown) => session.push(frame(framing, message)),
    stdout: () => concat(writes),
    messages: () => parseStdout(framing, concat(writes)),
    clear: () => writes.splice(0),
  };
}

const initialize = (id: JsonRpcId = 1) =>
  encodeRequest(id, 'initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 't', version: '1' } });
const initialized = encodeNotification('notifications/initialized');
const call = (id: JsonRpcId, name: string, args: Record<string, unknown>) => encodeRequest(id, 'tools/call', { name, arguments: args });

async function handshake(h: ReturnType<typeof harness>) {
  h.send(initialize());
  h.send(initialized);
  await h.session.finish();
  h.clear();
}

afterEach(() => {
  vi.useRealTimers();
});

describe.each(['content-length', 'ndjson'] as const)('server session over %s', (framing) => {
  it('runs the handshake and a call, writing only frames to stdout', async () => {
    const h = harness(framing);
    h.send(initialize(0));
    h.send(initialized);
    h.send(encodeRequest(1, 'tools/list'));
    h.send(call('three', 'echo', { text: 'hello from MCP' }));
    await h.session.finish();
    const [init, list, echo, ...rest] = h.messages() as Record<string, unknown>[];
    expect(rest).toEqual([]);
    expect(init).toMatchObject({ id: 0, result: { protocolVersion: LATEST_PROTOCOL_VERSION, serverInfo: { name: 'mcp-echo-server' } } });
    expect(list).toMatchObject({ id: 1, result: { tools: expect.arrayContaining([expect.objectContaining({ name: 'echo' })]) } });
    expect(echo).toEqual({ jsonrpc: '2.0', id: 'three', result: { content: [{ type: 'text', text: 'hello from MCP' }] } });
  });

  it('writes the exact frame bytes for a response', async () => {
    const h = harness(framing);
    h.send(encodeRequest(5, 'ping'));
    await h.session.finish();
    expect(h.stdout()).toEqual(frame(framing, { jsonrpc: '2.0', id: 5, result: {} }));
  });

  it('logs every request and notification to stderr, never to stdout', async () => {
    const h = harness(framing);
    h.send(initialize(1));
    h.send(initialized);
    h.send(call(2, 'echo', { text: 'x' }));
    await h.session.finish();
    expect(h.logs).toEqual(['request initialize #1', 'notification notifications/initialized', 'request tools/call #2']);
    expect(decodeUtf8(h.stdout())).not.toContain('request');
  });

  it('accepts frames cut into arbitrary chunks, including inside a character', async () => {
    const h = harness(framing);
    await handshake(h);
    const bytes = frame(framing, call(9, 'echo', { text: '你好' }));
    for (let i = 0; i < bytes.length; i += 2) h.session.push(bytes.slice(i, i + 2));
    await h.session.finish();
    expect(h.messages()).toEqual([{ jsonrpc: '2.0', id: 9, result: { content: [{ type: 'text', text: '你好' }] } }]);
  });

  it('never answers a notification, known or unknown, before or after initialize', async () => {
    const h = harness(framing);
    h.send(encodeNotification('notifications/whatever'));
    h.send(initialized);
    h.send(initialize());
    await h.session.finish();
    h.clear();
    h.send(initialized);
    h.send(encodeNotification('notifications/cancelled', { requestId: 42 }));
    h.send(encodeNotification('tools/list'));
    await h.session.finish();
    expect(h.writes).toEqual([]);
  });

  it('answers bytes that are not JSON with -32700 and no id', async () => {
    const h = harness(framing);
    const junk = '{"jsonrpc":"2.0",';
    h.session.push(utf8.encode(framing === 'ndjson' ? `${junk}\n` : `Content-Length: ${junk.length}\r\n\r\n${junk}`));
    await h.session.finish();
    expect(h.messages()).toEqual([{ jsonrpc: '2.0', error: { code: -32700, message: expect.stringContaining('Parse error') } }]);
    expect(h.logs.some((line) => line.includes('bad-json'))).toBe(true);
  });

  it('answers requests out of order when delay_echo finishes later, and finish() waits for both', async () => {
    vi.useFakeTimers();
    const h = harness(framing);
    await handshake(h);
    h.send(call(1, 'delay_echo', { text: 'slow', ms: 200 }));
    h.send(call(2, 'delay_echo', { text: 'fast', ms: 20 }));
    let finished = false;
    const done = h.session.finish().then(() => (finished = true));
    await vi.advanceTimersByTimeAsync(20);
    expect(h.messages().map((m) => (m as { id: JsonRpcId }).id)).toEqual([2]);
    expect(finished).toBe(false);
    await vi.advanceTimersByTimeAsync(180);
    await done;
    expect(h.messages()).toEqual([
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'fast' }] } },
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'slow' }] } },
    ]);
  });

  it('refuses tools before notifications/initialized unless the no-gate fault is on', async () => {
    for (const faults of [[], ['no-gate']] as FaultName[][]) {
      const h = harness(framing, faults);
      h.send(initialize());
      h.send(encodeRequest(2, 'tools/list'));
      await h.session.finish();
      const [, list] = h.messages() as Record<string, unknown>[];
      if (faults.length === 0) expect(list).toMatchObject({ id: 2, error: { code: -32600 } });
      else expect(list).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
    }
  });
});

describe('server session: reader errors', () => {
  it('logs a bad Content-Length header and answers -32700 without an id', async () => {
    const h = harness('content-length');
    h.session.push(utf8.encode('Content-Length: banana\r\n\r\n'));
    await h.session.finish();
    expect(h.logs.some((line) => line.includes('bad-header'))).toBe(true);
    expect(h.messages()).toMatchObject([{ error: { code: -32700 } }]);
    expect(h.messages()[0]).not.toHaveProperty('id');
  });

  it('logs a declared length over the limit and answers -32700 without an id', async () => {
    const h = harness('content-length');
    h.session.push(utf8.encode('Content-Length: 999999999\r\n\r\n'));
    await h.session.finish();
    expect(h.logs.some((line) => line.includes('too-large'))).toBe(true);
    expect(h.messages()).toMatchObject([{ error: { code: -32700 } }]);
    expect(h.messages()[0]).not.toHaveProperty('id');
  });

  it('logs a frame left unfinished when stdin ends', async () => {
    const h = harness('ndjson');
    h.session.push(utf8.encode('{"jsonrpc":"2.0"'));
    await h.session.finish();
    expect(h.logs.some((line) => line.includes('16 bytes'))).toBe(true);
    expect(h.writes).toEqual([]);
  });

  it('still answers, with -32603, if the server itself breaks on a request', async () => {
    const broken: ServerTool = {
      info: {
        name: 'broken',
        get inputSchema(): Record<string, unknown> {
          throw new Error('schema exploded');
        },
      },
      run: () => 'never',
    };
    const h = harness('ndjson', ['no-gate'], { tools: [broken] });
    h.send(initialize());
    h.send(call(4, 'broken', {}));
    await h.session.finish();
    expect(h.messages()[1]).toEqual({ jsonrpc: '2.0', id: 4, error: { code: -32603, message: 'Internal error' } });
    expect(h.logs.some((line) => line.includes('schema exploded'))).toBe(true);
  });
});

describe('server session: results JSON cannot carry', () => {
  it('answers -32603 when a tool result cannot be serialised, instead of leaving the id unanswered', async () => {
    const bigint: ServerTool = {
      info: { name: 'bigint', inputSchema: { type: 'object' } },
      run: () => ({ content: [{ type: 'text', text: 'x' }], structuredContent: { n: 1n } }),
    };
    const h = harness('content-length', ['no-gate'], { tools: [bigint] });
    h.send(initialize());
    h.send(call(5, 'bigint', {}));
    h.send(encodeRequest(6, 'ping'));
    await h.session.finish();
    // Completion order: the ping may overtake the failed call; both must be answered.
    expect(h.messages().slice(1)).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: 5, error: { code: -32603, message: 'Internal error' } },
        { jsonrpc: '2.0', id: 6, result: {} },
      ]),
    );
    expect(h.messages()).toHaveLength(3);
    expect(h.logs.some((line) => line.includes('internal error while handling tools/call #5'))).toBe(true);
  });
});

describe('server session: faults change the bytes on stdout', () => {
  it('stdout-log writes a text line before each frame', async () => {
    const h = harness('ndjson', ['stdout-log']);
    h.send(initialize(1));
    h.send(initialized);
    h.send(call(3, 'echo', { text: 'x' }));
    await h.session.finish();
    const initFrame = decodeUtf8(await healthyStdout('ndjson', [initialize(1)]));
    const text = decodeUtf8(h.stdout());
    expect(text.startsWith(`[echo-server] answering initialize #1\n${initFrame}`)).toBe(true);
    expect(text).toContain('[echo-server] answering tools/call #3\n{"jsonrpc":"2.0","id":3,');
    expect(() => parseStdout('ndjson', h.stdout())).toThrow(); // the client's parser chokes on the log line
  });

  it('stdout-log breaks Content-Length framing too', async () => {
    const h = harness('content-length', ['stdout-log']);
    h.send(encodeRequest(1, 'ping'));
    await h.session.finish();
    expect(decodeUtf8(h.stdout())).toBe('[echo-server] answering ping #1\nContent-Length: 36\r\n\r\n{"jsonrpc":"2.0","id":1,"result":{}}');
  });

  it('char-length declares UTF-16 units: "你好" counts 2, not 6', async () => {
    const h = harness('content-length', ['char-length']);
    await handshake(h);
    h.send(call(3, 'echo', { text: '你好' }));
    await h.session.finish();
    const body = '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"你好"}]}}';
    expect(decodeUtf8(h.stdout())).toBe(`Content-Length: ${body.length}\r\n\r\n${body}`);
    expect(utf8.encode(body).length - body.length).toBe(6 - 2);
  });

  it('char-length changes nothing for ASCII, and nothing under ndjson (with a note on stderr)', async () => {
    const ascii = harness('content-length', ['char-length']);
    ascii.send(encodeRequest(1, 'ping'));
    await ascii.session.finish();
    expect(ascii.stdout()).toEqual(frame('content-length', { jsonrpc: '2.0', id: 1, result: {} }));

    const input = [initialize(), initialized, call(2, 'echo', { text: '你好' })];
    const ndjson = harness('ndjson', ['char-length']);
    for (const message of input) ndjson.send(message);
    await ndjson.session.finish();
    expect(decodeUtf8(ndjson.stdout())).toContain('你好');
    expect(ndjson.stdout()).toEqual(await healthyStdout('ndjson', input));
    expect(ndjson.logs[0]).toContain('char-length');
  });

  it.each(['content-length', 'ndjson'] as const)('reply-to-notification writes {"jsonrpc":"2.0","result":{}} (%s)', async (framing) => {
    const h = harness(framing, ['reply-to-notification']);
    h.send(initialize());
    await h.session.finish();
    h.clear();
    h.send(initialized);
    h.send(encodeNotification('notifications/unknown'));
    await h.session.finish();
    const orphan = '{"jsonrpc":"2.0","result":{}}';
    const expected = framing === 'ndjson' ? `${orphan}\n` : `Content-Length: ${orphan.length}\r\n\r\n${orphan}`;
    expect(decodeUtf8(h.stdout())).toBe(expected + expected);
  });

  it('error-as-rpc-error answers a failing tool (and bad arguments) with -32603 instead of isError data', async () => {
    const faulty = harness('ndjson', ['error-as-rpc-error']);
    await handshake(faulty);
    faulty.send(call(1, 'fail', { message: 'boom' }));
    faulty.send(call(2, 'add', { a: 'x', b: 1 }));
    faulty.send(call(3, 'add', { a: 1, b: 1 }));
    await faulty.session.finish();
    expect(faulty.messages()).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'boom' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: expect.stringContaining('"a" must be a number') } },
      { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: '2' }] } },
    ]);

    const healthy = harness('ndjson');
    await handshake(healthy);
    healthy.send(call(1, 'fail', { message: 'boom' }));
    await healthy.session.finish();
    expect(healthy.messages()).toEqual([{ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'boom' }], isError: true } }]);
  });

  it.each(['content-length', 'ndjson'] as const)('split-writes writes a frame in 1..7-byte pieces, some cut inside a character (%s)', async (framing) => {
    const h = harness(framing, ['split-writes']);
    await handshake(h);
    h.send(call(3, 'echo', { text: '你好, wörld 🚀' }));
    await h.session.finish();
    const expected = frame(framing, { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: '你好, wörld 🚀' }] } });
    expect(h.stdout()).toEqual(expected);
    expect(h.writes.length).toBeGreaterThan(expected.length / 7);
    expect(h.writes.every((piece) => piece.length >= 1 && piece.length <= 7)).toBe(true);
    let at = 0;
    const cuts: number[] = [];
    for (const piece of h.writes.slice(0, -1)) cuts.push((at += piece.length));
    expect(cuts.some((cut) => ((expected[cut] ?? 0) & 0xc0) === 0x80)).toBe(true);
  });

  it('faults combine: stdout-log lines and split frames still arrive in order', async () => {
    const h = harness('ndjson', ['stdout-log', 'split-writes']);
    h.send(encodeRequest(1, 'ping'));
    await h.session.finish();
    expect(decodeUtf8(h.stdout())).toBe('[echo-server] answering ping #1\n{"jsonrpc":"2.0","id":1,"result":{}}\n');
    expect(h.writes.length).toBeGreaterThan(2);
  });
});

/** The stdout of a fault-free session given the same input: the baseline a fault is compared with. */
async function healthyStdout(framing: FramingName, messages: unknown[]): Promise<Uint8Array> {
  const h = harness(framing);
  for (const message of messages) h.send(message);
  await h.session.finish();
  return h.stdout();
}

describe('server session: the official SDK client as a cross-check', () => {
  it('connects, lists and calls tools through an ndjson session', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    // A minimal in-memory SDK Transport: the client's messages go in as ndjson frames, and the
    // session's stdout is split back into lines for the client.
    let buffered = '';
    const transport = {
      onmessage: undefined as undefined | ((message: unknown) => void),
      onclose: undefined as undefined | (() => void),
      onerror: undefined as undefined | ((error: Error) => void),
      async start() {},
      async send(message: unknown) {
        session.push(frame('ndjson', message));
      },
      async close() {
        await session.finish();
        transport.onclose?.();
      },
    };
    const session = createServerSession({
      framing: 'ndjson',
      write(bytes) {
        buffered += decodeUtf8(bytes);
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          transport.onmessage?.(JSON.parse(line));
        }
      },
    });
    const client = new Client({ name: 'sdk-cross-check', version: '1.0.0' });
    await client.connect(transport as never);
    expect(client.getServerVersion()).toEqual({ name: 'mcp-echo-server', version: '1.0.0' });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'add', 'delay_echo', 'fail', 'delete_file']);
    expect(await client.callTool({ name: 'echo', arguments: { text: '你好' } })).toEqual({ content: [{ type: 'text', text: '你好' }] });
    expect(await client.callTool({ name: 'fail', arguments: { message: 'nope' } })).toEqual({
      content: [{ type: 'text', text: 'nope' }],
      isError: true,
    });
    await expect(client.callTool({ name: 'missing', arguments: {} })).rejects.toThrow(/Unknown tool/);
    await client.close();
  });
});
