// The real echo server (public/generated/echo-server.mjs) as a child process, for both framings,
// read back with the project's own frame readers. Faults are checked on the raw stdout bytes.

import { afterEach, describe, expect, it } from 'vitest';
import { FAULT_DESCRIPTIONS, STDIO_FAULT_NAMES, type FaultName } from '../../src/protocol/faults.ts';
import { getFraming } from '../../src/protocol/framing/index.ts';
import type { Framing, FramingName, FrameReader, ReadItem } from '../../src/protocol/framing/types.ts';
import { builtProgram, killAllPrograms, startNode, type RunningProgram } from './child-transport.ts';

const FRAMINGS: FramingName[] = ['content-length', 'ndjson'];
const ECHO_TOOLS = ['echo', 'add', 'delay_echo', 'fail', 'delete_file'];
const GREETING = '你好 👋';

type Message = { jsonrpc?: string; id?: string | number | null; result?: any; error?: { code: number; message: string } };

const initialize = (id: number | string = 0) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'integration-test', version: '1' } },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
const listTools = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
const callTool = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** One echo server process, its stdout read with the framing it was started with. */
class EchoServerUnderTest {
  readonly program: RunningProgram;
  readonly framing: Framing;
  private readonly reader: FrameReader;
  private parsedChunks = 0;
  readonly items: ReadItem[] = [];

  constructor(framing: FramingName, faults: readonly FaultName[] = []) {
    this.framing = getFraming(framing);
    this.reader = this.framing.createReader();
    this.program = startNode(builtProgram('echo-server'), [`--framing=${framing}`, ...faults.map((fault) => `--fault=${fault}`)]);
  }

  get messages(): Message[] {
    this.parse();
    return this.items.flatMap((item) => (item.type === 'message' ? [item.value as Message] : []));
  }

  send(message: unknown): Promise<void> {
    return this.program.write(this.framing.encode(message));
  }

  async waitForMessages(count: number): Promise<Message[]> {
    await this.program.waitFor(() => this.messages.length >= count, `${count} message(s) on stdout`);
    return this.messages;
  }

  /** Send, then wait for the next message: for requests answered in arrival order. */
  async request(message: unknown): Promise<Message> {
    const before = this.messages.length;
    await this.send(message);
    const messages = await this.waitForMessages(before + 1);
    return messages[before]!;
  }

  async handshake(): Promise<void> {
    await this.request(initialize());
    await this.send(initialized);
  }

  private parse(): void {
    const chunks = this.program.stdoutChunks;
    for (; this.parsedChunks < chunks.length; this.parsedChunks++) this.items.push(...this.reader.push(chunks[this.parsedChunks]!));
  }
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(killAllPrograms);

describe.each(FRAMINGS)('echo server, %s framing', (framing) => {
  it('answers initialize written one byte at a time, and not a byte earlier', async () => {
    const server = new EchoServerUnderTest(framing);
    const frame = server.framing.encode(initialize(0));
    await server.program.writeByteByByte(frame.subarray(0, -1));
    await settle(100);
    expect(server.program.stdout.length).toBe(0);
    await server.program.write(frame.subarray(-1));
    const [reply] = await server.waitForMessages(1);
    expect(reply).toMatchObject({
      jsonrpc: '2.0',
      id: 0,
      result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: expect.any(String) } },
    });
    expect(server.items.filter((item) => item.type === 'error')).toEqual([]);
  });

  it('gives no response to notifications/initialized', async () => {
    const server = new EchoServerUnderTest(framing);
    await server.request(initialize());
    await server.send(initialized);
    // The next thing on stdout must be the ping's answer, not anything for the notification.
    const reply = await server.request(ping(1));
    expect(reply).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    await settle(50);
    expect(server.messages).toHaveLength(2);
  });

  it('lists the five echo tools with schemas', async () => {
    const server = new EchoServerUnderTest(framing);
    await server.handshake();
    const reply = await server.request(listTools(1));
    const tools = reply.result.tools as { name: string; inputSchema: { type: string } }[];
    expect(tools.map((tool) => tool.name).sort()).toEqual([...ECHO_TOOLS].sort());
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
  });

  it('echoes CJK and emoji text unchanged, with the whole exchange sent byte by byte', async () => {
    const server = new EchoServerUnderTest(framing);
    const bytes = Buffer.concat([initialize(), initialized, callTool(7, 'echo', { text: GREETING })].map((m) => server.framing.encode(m)));
    await server.program.writeByteByByte(bytes);
    const [, reply] = await server.waitForMessages(2);
    expect(reply).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: GREETING }] } });
  });

  it('refuses tools/list before notifications/initialized with -32600', async () => {
    const server = new EchoServerUnderTest(framing);
    await server.request(initialize());
    const reply = await server.request(listTools(1));
    expect(reply.error?.code).toBe(-32600);
    expect(reply.id).toBe(1);
  });

  it('answers an unknown tool with -32602', async () => {
    const server = new EchoServerUnderTest(framing);
    await server.handshake();
    const reply = await server.request(callTool(2, 'no_such_tool', {}));
    expect(reply).toMatchObject({ id: 2, error: { code: -32602 } });
  });

  it('reports a failing tool as a result with isError: true', async () => {
    const server = new EchoServerUnderTest(framing);
    await server.handshake();
    const reply = await server.request(callTool(3, 'fail', { message: 'boom' }));
    expect(reply.error).toBeUndefined();
    expect(reply.result.isError).toBe(true);
    expect(JSON.stringify(reply.result.content)).toContain('boom');
  });

  it('answers two delay_echo calls out of order, each with its own id', async () => {
    const server = new EchoServerUnderTest(framing);
    await server.handshake();
    // One write for both, so only the tools' own delays decide the order, not process scheduling.
    const slow = server.framing.encode(callTool(10, 'delay_echo', { text: 'slow', ms: 400 }));
    const fast = server.framing.encode(callTool(11, 'delay_echo', { text: 'fast', ms: 0 }));
    await server.program.write(Buffer.concat([slow, fast]));
    const replies = (await server.waitForMessages(3)).slice(1);
    expect(replies.map((reply) => reply.id)).toEqual([11, 10]);
    expect(replies.map((reply) => reply.result.content[0].text)).toEqual(['fast', 'slow']);
  });

  it('on EOF answers what is in flight, then exits 0', async () => {
    const server = new EchoServerUnderTest(framing);
    await server.handshake();
    await server.send(callTool(12, 'delay_echo', { text: 'late', ms: 300 }));
    server.program.end();
    const status = await server.program.exit();
    expect(status).toEqual({ code: 0, signal: null });
    expect(server.messages.at(-1)).toMatchObject({ id: 12, result: { content: [{ text: 'late' }] } });
    expect(server.program.stderr).toContain(framing);
  });

  it('logs to stderr only: a start line naming framing and faults, one line per request', async () => {
    const server = new EchoServerUnderTest(framing, ['no-gate']);
    await server.handshake();
    await server.request(ping(5));
    server.program.end();
    await server.program.exit();
    const log = server.program.stderr;
    expect(log.split('\n')[0]).toMatch(new RegExp(`${framing}.*no-gate`));
    expect(log).toContain('initialize');
    expect(log).toContain('ping');
    // Every stdout byte belongs to a frame.
    expect(server.items.every((item) => item.type === 'message')).toBe(true);
  });
});

describe('echo server command line', () => {
  it.each([
    [['--framing=xml']],
    [['--fault=explode']],
    [['--verbose']],
    [['--framing=ndjson', '--fault=char-length']],
  ])('%j: usage on stderr, nothing on stdout, exit 2', async (args) => {
    const program = startNode(builtProgram('echo-server'), args);
    const status = await program.exit();
    expect(status.code).toBe(2);
    expect(program.stdout.length).toBe(0);
    expect(program.stderr).toMatch(/usage: node echo-server\.mjs/);
    for (const fault of STDIO_FAULT_NAMES) expect(program.stderr).toContain(FAULT_DESCRIPTIONS[fault]);
    expect(program.stderr).toContain('content-length');
    expect(program.stderr).toContain('ndjson');
  });

  it('--help prints usage on stdout and exits 0', async () => {
    const program = startNode(builtProgram('echo-server'), ['--help']);
    const status = await program.exit();
    expect(status.code).toBe(0);
    expect(program.stdout.toString('utf8')).toMatch(/^usage: node echo-server\.mjs/);
    for (const fault of STDIO_FAULT_NAMES) expect(program.stdout.toString('utf8')).toContain(fault);
  });

  it('defaults to newline-delimited JSON, the specification\'s stdio transport', async () => {
    const program = startNode(builtProgram('echo-server'));
    await program.write(getFraming('ndjson').encode(ping(1)));
    await program.waitFor(() => program.stdout.includes('\n'), 'an answer');
    program.end();
    await program.exit();
    expect(JSON.parse(program.stdout.toString('utf8'))).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  // A client and server that disagree on framing both wait in silence; the server's stderr says why.
  it('a Content-Length client against the default server: stderr names --framing=content-length', async () => {
    const program = startNode(builtProgram('echo-server'));
    await program.write(getFraming('content-length').encode(ping(1)));
    await program.waitFor(() => program.stderr.includes('--framing=content-length'), 'the framing hint');
    program.end();
    await program.exit();
    expect(program.stderr).toMatch(/client seems to speak Content-Length frames.*start it with --framing=content-length/);
  });

  it('an NDJSON client against --framing=content-length: stderr names NDJSON and its flag', async () => {
    const program = startNode(builtProgram('echo-server'), ['--framing=content-length']);
    await program.write(getFraming('ndjson').encode(ping(1)));
    await program.waitFor(() => program.stderr.includes('--framing=ndjson'), 'the framing hint');
    program.end();
    await program.exit();
    expect(program.stderr).toMatch(/client seems to speak newline-delimited JSON.*start it with --framing=ndjson/);
  });

  it.each(['legacy', 'modern', 'dual'])('--era=%s answers an invalid id-less message with the id-less -32600', async (era) => {
    const program = startNode(builtProgram('echo-server'), [`--era=${era}`]);
    await program.write('{"jsonrpc":"2.0"}\n');
    await program.waitFor(() => program.stdout.includes('\n'), 'an answer');
    program.end();
    await program.exit();
    const answer = JSON.parse(program.stdout.toString('utf8')) as Message;
    expect(answer).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    expect('id' in answer).toBe(false);
  });

  it('a client in the server\'s own framing gets no hint', async () => {
    for (const framing of FRAMINGS) {
      const program = startNode(builtProgram('echo-server'), [`--framing=${framing}`]);
      await program.write(getFraming(framing).encode(ping(1)));
      await program.waitFor(() => program.stdout.length > 0, 'an answer');
      program.end();
      await program.exit();
      expect(program.stderr).not.toContain('seems to speak');
    }
  });
});

describe.each(FRAMINGS)('faults on the raw stdout bytes, %s framing', (framing) => {
  it('stdout-log: a plain text line lands on stdout before each frame', async () => {
    const server = new EchoServerUnderTest(framing, ['stdout-log']);
    await server.send(initialize());
    await server.program.waitFor(() => server.program.stdout.includes('"id":0'), 'the initialize answer');
    const text = server.program.stdout.toString('utf8');
    const frameStart = framing === 'content-length' ? text.indexOf('Content-Length:') : text.indexOf('{');
    expect(frameStart).toBeGreaterThan(0);
    const before = text.slice(0, frameStart);
    expect(before).toMatch(/^[^{]*\n$/);
    expect(before).toContain('initialize');
  });

  it('reply-to-notification: the notification gets an orphan response with no id', async () => {
    const server = new EchoServerUnderTest(framing, ['reply-to-notification']);
    await server.request(initialize());
    const orphan = await server.request(initialized);
    expect(orphan).toEqual({ jsonrpc: '2.0', result: {} });
    expect('id' in orphan).toBe(false);
  });

  it('error-as-rpc-error: a failing tool comes back as a JSON-RPC error, not isError', async () => {
    const server = new EchoServerUnderTest(framing, ['error-as-rpc-error']);
    await server.handshake();
    const reply = await server.request(callTool(3, 'fail', { message: 'boom' }));
    expect(reply.result).toBeUndefined();
    expect(reply.error).toMatchObject({ code: -32603, message: expect.stringContaining('boom') });
    // Success is untouched.
    const ok = await server.request(callTool(4, 'echo', { text: 'fine' }));
    expect(ok.result.content[0].text).toBe('fine');
  });

  it('no-gate: tools/list is served before notifications/initialized', async () => {
    const server = new EchoServerUnderTest(framing, ['no-gate']);
    await server.request(initialize());
    const reply = await server.request(listTools(1));
    expect(reply.error).toBeUndefined();
    expect(reply.result.tools).toHaveLength(ECHO_TOOLS.length);
  });

  it('split-writes: the stream still reassembles to valid frames, byte-identical to a normal run', async () => {
    const conversation = [initialize(), initialized, listTools(1), callTool(2, 'echo', { text: GREETING }), callTool(3, 'fail', {})];
    const run = async (faults: FaultName[]) => {
      const server = new EchoServerUnderTest(framing, faults);
      // One request at a time, so the answers' order cannot depend on how stdin was chunked.
      for (const message of conversation) {
        if ('id' in message) await server.request(message);
        else await server.send(message);
      }
      server.program.end();
      expect((await server.program.exit()).code).toBe(0);
      return server;
    };
    const [plain, split] = [await run([]), await run(['split-writes'])];
    expect(split.items.every((item) => item.type === 'message')).toBe(true);
    expect(split.messages).toEqual(plain.messages);
    expect(split.messages).toHaveLength(4);
    expect(split.program.stdout.equals(plain.program.stdout)).toBe(true);
  });
});

describe('char-length fault (Content-Length only)', () => {
  it('counts UTF-16 units: the header for a body with "你好" is short by 4 (2 units, 6 bytes)', async () => {
    const server = new EchoServerUnderTest('content-length', ['char-length']);
    await server.handshake();
    const before = server.program.stdout.length;
    await server.send(callTool(1, 'echo', { text: '你好' }));
    await server.program.waitFor(() => server.program.stdout.subarray(before).includes('}}'), 'the echo answer');
    await settle(50);
    const raw = server.program.stdout.subarray(before);
    const match = /^Content-Length: (\d+)\r\n\r\n/.exec(raw.toString('latin1'));
    expect(match).not.toBeNull();
    const declared = Number(match![1]);
    const body = raw.subarray(match![0].length);
    const bodyText = body.toString('utf8');
    expect(bodyText).toContain('你好');
    expect(declared).toBe(bodyText.length); // UTF-16 code units
    expect(body.length - declared).toBe(4); // the two characters: 6 bytes, counted as 2
    // And the project's reader, trusting the header, cannot read this frame as the right message.
    const reader = getFraming('content-length').createReader();
    const items = reader.push(raw);
    expect(items.some((item) => item.type === 'message' && JSON.stringify(item.value).includes('你好'))).toBe(false);
  });

  it('leaves ASCII-only frames correct, which is why the bug hides', async () => {
    const server = new EchoServerUnderTest('content-length', ['char-length']);
    await server.handshake();
    const reply = await server.request(callTool(1, 'echo', { text: 'hello' }));
    expect(reply.result.content[0].text).toBe('hello');
  });
});
