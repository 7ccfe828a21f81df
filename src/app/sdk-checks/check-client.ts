// "Check my client": the learner's exercise-3 client, running in the learner-code worker (never on
// the page thread) through a ClientDriver, in NDJSON mode, against `sdk-echo-server` — an
// McpServer built with the OFFICIAL SDK — in the live host. The checks judge the learner's client
// by what a server nobody here wrote sends back, and the client's own bytes by the SDK's parser.
//
// Loaded only through a dynamic import: it pulls in the SDK's message schema.

import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Wire } from '../../runtime/host.ts';
import type { CallOutcome, ClientDriver, DriverOp, ErrorInfo } from '../../sandbox/client-driver.ts';
import { CheckFailure, DEFAULT_CHECK_LIMIT_MS, errorReport, pretty, runChecks, type Check, type CheckResult, type SdkCheckReport } from './check-run.ts';
import { heldWrites, type HeldWrites } from './held-writes.ts';
import { watchServer, type ServerWatch } from './server-watch.ts';
import { LineCutter, shorten } from './wire-transport.ts';

/** The name the SDK-built server gives in its initialize result (server/sdk-echo-server.ts). */
export const SDK_SERVER_NAME = 'sdk-echo-server';
export const CLIENT_CHECK_TEXT = '你好, SDK 👋';
export const UNKNOWN_TOOL = 'no_such_tool';

/** Which official server the client meets: SDK 1.32 (sdk-echo-server) or SDK 2.4.0 (sdk2-echo-server, both eras or 2026-07-28 only). */
export type ClientCheckServer = 'sdk1' | 'sdk2' | 'sdk2-modern';
export const SDK2_SERVER_NAME = 'sdk2-echo-server';

export interface ClientCheckContext {
  driver: ClientDriver;
  watch: ServerWatch;
  /** The client's way to the server's stdin, able to merge writes (see held-writes.ts). */
  stdin: HeldWrites;
}

/** One operation of the learner's client; a rejection becomes a failure that quotes their error. */
async function perform(driver: ClientDriver, op: DriverOp, what: string): Promise<unknown> {
  const outcome: CallOutcome = await driver.perform(op);
  if (outcome.ok) return outcome.value;
  throw new CheckFailure(`${what} threw ${describeError(outcome.error)}`);
}

function describeError(error: ErrorInfo): string {
  const where = error.line === null ? '' : ` (client.ts line ${error.line})`;
  const code = error.code === null ? '' : ` [code ${error.code}]`;
  return `${error.name}${code}: ${error.message}${where}`;
}

/** listTools may resolve to the array (the chapter's client) or to a { tools } page. */
function toolNames(value: unknown): string[] | null {
  const list = Array.isArray(value) ? value : (value as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(list)) return null;
  return list.map((tool) => (tool as { name?: unknown })?.name).filter((name): name is string => typeof name === 'string');
}

function textOf(result: unknown): string | null {
  const content = (result as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return null;
  return content.map((block) => ((block as { type?: unknown }).type === 'text' ? String((block as { text?: unknown }).text) : '')).join('');
}

function expectEcho(result: unknown, text: string, label: string): void {
  const expected = { content: [{ type: 'text', text }] };
  if ((result as { isError?: unknown } | null)?.isError === true || textOf(result) !== text) {
    throw new CheckFailure(`${label} did not resolve to the echoed text.`, pretty(expected), pretty(result));
  }
}

/** The lines the client wrote to the server's stdin, as the tap saw them. */
function sentLines(watch: ServerWatch): { lines: string[]; unfinished: number } {
  const cutter = new LineCutter();
  const lines = cutter.push(watch.clientBytes());
  return { lines, unfinished: cutter.bufferedBytes };
}

/** The checks against one server: the SDK 2.x servers name themselves differently and answer an unknown tool with -32602. */
export function clientChecks(server: ClientCheckServer): readonly Check<ClientCheckContext>[] {
  if (server === 'sdk1') return CLIENT_CHECKS;
  return CLIENT_CHECKS.map((check) => {
    if (check.id === 'handshake') return { ...check, title: check.title.replace(SDK_SERVER_NAME, SDK2_SERVER_NAME), run: (context) => handshakeWith(context, SDK2_SERVER_NAME, server === 'sdk2-modern') };
    if (check.id === 'unknown-tool') return SDK2_UNKNOWN_TOOL;
    return check;
  });
}

async function handshakeWith({ driver }: ClientCheckContext, name: string, modernOnly: boolean): Promise<void> {
  const outcome = await driver.perform({ op: 'initialize' });
  if (!outcome.ok) {
    const why = modernOnly && outcome.error.code === -32022
      ? ' This SDK 2.4.0 server runs in modern mode (2026-07-28 only): it refuses initialize with -32022 and lists the versions it speaks. A handshake-era client has no way in; a dual-era client (exercise 7) probes server/discover instead.'
      : '';
    throw new CheckFailure(`initialize() threw ${describeError(outcome.error)}.${why}`);
  }
  const result = outcome.value as { protocolVersion?: unknown; serverInfo?: { name?: unknown } } | null;
  if (typeof result?.protocolVersion !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
    throw new CheckFailure("initialize() should resolve to the server's result, whose protocolVersion the SDK supports.", `one of ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`, pretty(result?.protocolVersion));
  }
  if (result.serverInfo?.name !== name) throw new CheckFailure("initialize() should resolve to the server's result, serverInfo included.", pretty(name), pretty(result.serverInfo));
  await perform(driver, { op: 'notifyInitialized' }, 'notifyInitialized()');
}

const SDK2_UNKNOWN_TOOL: Check<ClientCheckContext> = {
  id: 'unknown-tool',
  title: 'an unknown tool: SDK 2.x answers with the JSON-RPC error -32602, and callTool rejects with that code',
  code: `await client.callTool('${UNKNOWN_TOOL}', {}); // throws, code -32602`,
  async run({ driver }) {
    const outcome = await driver.perform({ op: 'callTool', name: UNKNOWN_TOOL, args: {} });
    if (outcome.ok) {
      // A result marked isError is what SDK 1.x sends; a client that reads either shape copes.
      if ((outcome.value as { isError?: unknown } | null)?.isError === true) return;
      throw new CheckFailure('callTool resolved with a result the server never sent as a success.', 'a rejection with code -32602', pretty(outcome.value));
    }
    if (outcome.error.code !== -32602) throw new CheckFailure(`callTool threw ${describeError(outcome.error)}, without the server's error code.`, 'code -32602', pretty(outcome.error.code));
  },
};

export const CLIENT_CHECKS: readonly Check<ClientCheckContext>[] = [
  {
    id: 'handshake',
    title: `handshake: initialize names a version the SDK speaks and serverInfo.name ${SDK_SERVER_NAME}`,
    code: 'const result = await client.initialize();\nclient.notifyInitialized();',
    async run({ driver }) {
      const result = (await perform(driver, { op: 'initialize' }, 'initialize()')) as { protocolVersion?: unknown; serverInfo?: { name?: unknown } } | null;
      if (typeof result?.protocolVersion !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
        throw new CheckFailure('initialize() should resolve to the server\'s result, whose protocolVersion the SDK supports.', `one of ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`, pretty(result?.protocolVersion));
      }
      if (result.serverInfo?.name !== SDK_SERVER_NAME) throw new CheckFailure('initialize() should resolve to the server\'s result, serverInfo included.', pretty(SDK_SERVER_NAME), pretty(result.serverInfo));
      await perform(driver, { op: 'notifyInitialized' }, 'notifyInitialized()');
    },
  },
  {
    id: 'list-tools',
    title: 'listTools: the SDK server lists echo',
    code: 'const tools = await client.listTools();',
    async run({ driver }) {
      const value = await perform(driver, { op: 'listTools' }, 'listTools()');
      const names = toolNames(value);
      if (names === null || !names.includes('echo')) throw new CheckFailure('listTools() should resolve to the tools, echo among them.', '[{ "name": "echo", … }]', pretty(value));
    },
  },
  {
    id: 'call-echo',
    title: 'callTool echo: the text comes back unchanged',
    code: `await client.callTool('echo', { text: ${JSON.stringify(CLIENT_CHECK_TEXT)} });`,
    async run({ driver }) {
      expectEcho(await perform(driver, { op: 'callTool', name: 'echo', args: { text: CLIENT_CHECK_TEXT } }, 'callTool("echo")'), CLIENT_CHECK_TEXT, 'callTool("echo")');
    },
  },
  {
    id: 'in-flight',
    title: 'two requests in flight: each answer reaches its own request (the SDK server may answer the later one first; SDK 1.32 usually does)',
    code: "await Promise.all([\n  client.callTool('echo', { text: 'first' }),\n  client.listTools(),\n]);",
    async run({ driver, stdin }) {
      // Both requests reach the server in one read, so it answers tools/list first (held-writes.ts).
      const bothWritten = stdin.holdUntilLines(2);
      const answers = Promise.all([driver.perform({ op: 'callTool', name: 'echo', args: { text: 'first' } }), driver.perform({ op: 'listTools' })]);
      // A client that writes nothing (or throws first) must not be held forever: the answers settle it.
      await Promise.race([bothWritten, answers]);
      stdin.release();
      const [call, list] = await answers;
      const shown = (outcome: CallOutcome) => (outcome.ok ? outcome.value : `threw ${describeError(outcome.error)}`);
      const names = list.ok ? toolNames(list.value) : null;
      if (!call.ok || textOf(call.value) !== 'first' || names === null || !names.includes('echo')) {
        throw new CheckFailure(
          'The two answers did not reach their own requests. The SDK server may answer tools/list before the tools/call sent ahead of it (SDK 1.32 usually does): responses must be paired with requests by id, never by arrival order.',
          pretty({ callTool: { content: [{ type: 'text', text: 'first' }] }, listTools: ['echo'] }),
          pretty({ callTool: shown(call), listTools: shown(list) }),
        );
      }
    },
  },
  {
    id: 'unknown-tool',
    title: 'an unknown tool: SDK 1.x answers with isError data, and callTool resolves with it',
    code: `const result = await client.callTool('${UNKNOWN_TOOL}', {});\n// result.isError === true`,
    async run({ driver }) {
      const outcome = await driver.perform({ op: 'callTool', name: UNKNOWN_TOOL, args: {} });
      if (!outcome.ok) {
        throw new CheckFailure(
          `callTool threw ${describeError(outcome.error)}. SDK 1.x servers answer an unknown tool with a result marked isError: true (not the -32602 error the chapter's server sends), and a result is data: your client must resolve with it, not throw. A client meeting real servers copes with both.`,
          '{ "content": [{ "type": "text", "text": "MCP error -32602: Tool no_such_tool not found" }], "isError": true }',
          describeError(outcome.error),
        );
      }
      if ((outcome.value as { isError?: unknown } | null)?.isError !== true) throw new CheckFailure('The result should still say isError: true.', '"isError": true', pretty(outcome.value));
    },
  },
  {
    id: 'bytes',
    title: "every line the client wrote is NDJSON the SDK's parser accepts, notifications/initialized included",
    code: "for (const line of clientStdin.split('\\n')) deserializeMessage(line); // from @modelcontextprotocol/sdk/shared/stdio.js",
    async run({ driver, watch }) {
      await driver.flush();
      const { lines, unfinished } = sentLines(watch);
      const methods: string[] = [];
      for (const [index, line] of lines.entries()) {
        let message;
        try {
          message = deserializeMessage(line);
        } catch {
          throw new CheckFailure(`Line ${index + 1} of what your client wrote is not a JSON-RPC message the SDK accepts.`, 'one JSON-RPC message per line', shorten(line, 400));
        }
        if ('method' in message) methods.push(message.method);
      }
      if (unfinished > 0) throw new CheckFailure(`Your client wrote ${unfinished} bytes after its last '\\n': in NDJSON every message ends with a newline.`);
      const initialize = methods.indexOf('initialize');
      const initialized = methods.indexOf('notifications/initialized');
      if (initialize !== 0 || initialized < 0) {
        throw new CheckFailure('The client must open with initialize and then send notifications/initialized.', pretty(['initialize', 'notifications/initialized', '…']), pretty(methods));
      }
    },
  },
  {
    id: 'close',
    title: 'close: stdin ends and the SDK server exits on its own',
    code: 'await client.close();',
    endsServer: true,
    async run({ driver, watch }) {
      await perform(driver, { op: 'close' }, 'close()');
      await watch.down;
      if (watch.exit?.code !== 0) throw new CheckFailure('After close() the server should see end of input and exit with code 0.', 'exit code 0', pretty(watch.exit ?? watch.downReason));
    },
  },
];

export interface ClientCheckOptions {
  limitMs?: number;
  /** Which server runs on the wire (default sdk1). */
  server?: ClientCheckServer;
  onResult?(result: CheckResult, index: number, total: number): void;
}

/** Starts the learner's client (through `driver`) on a started sdk-echo-server, runs every check, cleans up. */
export async function checkClient(wire: Wire, driver: ClientDriver, options: ClientCheckOptions = {}): Promise<SdkCheckReport> {
  const watch = watchServer(wire);
  const limitMs = options.limitMs ?? DEFAULT_CHECK_LIMIT_MS;
  try {
    const stdin = heldWrites(wire);
    const started = await driver.start(stdin, 'ndjson');
    if (!started.ok) return errorReport('client', `Your client did not start: ${describeError(started.error)}`);
    return await runChecks(clientChecks(options.server ?? 'sdk1'), { driver, watch, stdin }, { suite: 'client', limitMs, watch, onResult: options.onResult });
  } finally {
    watch.dispose();
    driver.dispose();
    wire.kill();
  }
}
