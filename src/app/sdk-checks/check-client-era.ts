// "Check my client" in the 2026-07-28 era: the learner's exercise-7 ModernSession runs inside the
// app's DualEraClient in the learner worker (LearnerDriver with an era config; the worker side is
// startEraClient in src/sandbox/learner-worker-core.ts), against an official server:
//
//   sdk2-modern  SDK 2.4.0 serveStdio, 2026-07-28 only: server/discover, then modern requests
//   sdk2         SDK 2.4.0 serveStdio, both eras: the probe finds 2026-07-28, so the same
//   sdk1         SDK 1.32: server/discover is unknown there, so the dual client falls back to the
//                handshake on the same pipe (the learner's probe verdict decides that)
//
// Same report shape as the other checks: each step a test. The driver's `initialize` op is the
// dual client's connect() (the probe), its ops otherwise the same as exercise 3's.

import type { Wire } from '../../runtime/host.ts';
import type { CallOutcome, ClientDriver, DriverOp, ErrorInfo } from '../../sandbox/client-driver.ts';
import { META_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION } from '../../protocol/era/meta.ts';
import { CheckFailure, DEFAULT_CHECK_LIMIT_MS, errorReport, pretty, runChecks, type Check, type SdkCheckReport } from './check-run.ts';
import { CLIENT_CHECK_TEXT, CLIENT_CHECKS, SDK2_SERVER_NAME, SDK_SERVER_NAME, UNKNOWN_TOOL, type ClientCheckContext, type ClientCheckOptions, type ClientCheckServer } from './check-client.ts';
import { heldWrites } from './held-writes.ts';
import { watchServer } from './server-watch.ts';
import { LineCutter } from './wire-transport.ts';

/** How the era checks start the learner's file in the worker: the dual client probes first. */
export const ERA_CHECK_CONFIG = { mode: 'probe' } as const;

const FILE = 'stateless-client.ts';

function describeError(error: ErrorInfo): string {
  const where = error.line === null ? '' : ` (${FILE} line ${error.line})`;
  const code = error.code === null ? '' : ` [code ${error.code}]`;
  return `${error.name}${code}: ${error.message}${where}`;
}

async function perform(driver: ClientDriver, op: DriverOp, what: string): Promise<unknown> {
  const outcome: CallOutcome = await driver.perform(op);
  if (outcome.ok) return outcome.value;
  throw new CheckFailure(`${what} threw ${describeError(outcome.error)}`);
}

function textOf(result: unknown): string | null {
  const content = (result as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return null;
  return content.map((block) => ((block as { type?: unknown }).type === 'text' ? String((block as { text?: unknown }).text) : '')).join('');
}

/** The JSON-RPC requests the client wrote, as the tap saw them (method and params). */
function sentRequests(watch: ClientCheckContext['watch']): { method: string; params: unknown }[] {
  const lines = new LineCutter().push(watch.clientBytes());
  const requests: { method: string; params: unknown }[] = [];
  for (const line of lines) {
    try {
      const message = JSON.parse(line) as { method?: unknown; id?: unknown; params?: unknown };
      if (typeof message.method === 'string' && message.id !== undefined) requests.push({ method: message.method, params: message.params });
    } catch {
      // Not JSON: the dual client's own codec wrote it, and the server would have said so already.
    }
  }
  return requests;
}

/** The era each server should end up in, and the name it gives. */
function expectedOf(server: ClientCheckServer): { era: 'modern' | 'legacy'; name: string } {
  return server === 'sdk1' ? { era: 'legacy', name: SDK_SERVER_NAME } : { era: 'modern', name: SDK2_SERVER_NAME };
}

function discoverCheck(server: ClientCheckServer): Check<ClientCheckContext> {
  const expected = expectedOf(server);
  return {
    id: 'era-discover',
    title:
      expected.era === 'modern'
        ? `discover: the probe (server/discover, through your ModernSession) finds ${MODERN_PROTOCOL_VERSION} at ${expected.name}`
        : `discover: ${expected.name} (SDK 1.32) does not know server/discover, so the dual-era client falls back to the handshake`,
    code: "const dual = new DualEraClient(stdio, { sessionClass: ModernSession });\nconst { era, protocolVersion, serverInfo } = await dual.connect(); // your discover()",
    async run({ driver, watch }) {
      const outcome = await driver.perform({ op: 'initialize' });
      if (!outcome.ok) {
        throw new CheckFailure(
          `connect() threw ${describeError(outcome.error)}. connect() probes with your ModernSession's discover() (exercise 7, ${FILE}): it must send server/discover with the _meta envelope and read the server's answer.`,
        );
      }
      const result = outcome.value as { era?: unknown; protocolVersion?: unknown; serverInfo?: { name?: unknown } } | null;
      const seen = { era: result?.era, protocolVersion: result?.protocolVersion, serverName: result?.serverInfo?.name };
      const want = expected.era === 'modern' ? { era: 'modern', protocolVersion: MODERN_PROTOCOL_VERSION, serverName: expected.name } : { era: 'legacy', serverName: expected.name };
      const matches = seen.era === want.era && seen.serverName === want.serverName && (want.protocolVersion === undefined || seen.protocolVersion === want.protocolVersion);
      if (!matches) {
        const why =
          expected.era === 'modern'
            ? `This server speaks ${MODERN_PROTOCOL_VERSION}: your discover() should resolve to its DiscoverResult, so the client stays modern.`
            : 'SDK 1.32 answers server/discover with -32601 (method not found): your probe verdict should say "legacy" so the client falls back to initialize.';
        throw new CheckFailure(why, pretty(want), pretty(seen));
      }
      const first = sentRequests(watch)[0];
      if (first?.method !== 'server/discover') throw new CheckFailure('The first request on the wire should be the probe.', '"server/discover"', pretty(first?.method));
    },
  };
}

const LIST_TOOLS: Check<ClientCheckContext> = {
  id: 'list-tools',
  title: 'listTools: the SDK server lists echo',
  code: 'const tools = await dual.listTools();',
  async run({ driver }) {
    const value = await perform(driver, { op: 'listTools' }, 'listTools()');
    const names = Array.isArray(value) ? value.map((tool) => (tool as { name?: unknown })?.name) : null;
    if (names === null || !names.includes('echo')) throw new CheckFailure('listTools() should resolve to the tools, echo among them.', '[{ "name": "echo", … }]', pretty(value));
  },
};

const CALL_ECHO: Check<ClientCheckContext> = {
  id: 'call-echo',
  title: 'callTool echo: the text comes back unchanged',
  code: `await dual.callTool('echo', { text: ${JSON.stringify(CLIENT_CHECK_TEXT)} });`,
  async run({ driver }) {
    const result = await perform(driver, { op: 'callTool', name: 'echo', args: { text: CLIENT_CHECK_TEXT } }, 'callTool("echo")');
    if ((result as { isError?: unknown } | null)?.isError === true || textOf(result) !== CLIENT_CHECK_TEXT) {
      throw new CheckFailure('callTool("echo") did not resolve to the echoed text.', pretty({ content: [{ type: 'text', text: CLIENT_CHECK_TEXT }] }), pretty(result));
    }
  },
};

function unknownToolCheck(server: ClientCheckServer): Check<ClientCheckContext> {
  if (server === 'sdk1') {
    // After the fallback the handshake-era McpClient runs: SDK 1.x sends an isError result.
    const { run, code } = CLIENT_CHECKS.find((check) => check.id === 'unknown-tool')!;
    return { id: 'era-unknown-tool', title: 'an error: after the fallback, SDK 1.x answers an unknown tool with isError data', code, run };
  }
  return {
    id: 'era-unknown-tool',
    title: 'an error: SDK 2.4.0 answers an unknown tool with the JSON-RPC error -32602, and callTool rejects with that code',
    code: `await dual.callTool('${UNKNOWN_TOOL}', {}); // throws, code -32602`,
    async run({ driver }) {
      const outcome = await driver.perform({ op: 'callTool', name: UNKNOWN_TOOL, args: {} });
      if (outcome.ok) throw new CheckFailure('callTool resolved, but the server answered with an error.', 'a rejection with code -32602', pretty(outcome.value));
      if (outcome.error.code !== -32602) {
        throw new CheckFailure(`callTool threw ${describeError(outcome.error)}, without the server's error code: your ModernSession's request() should reject with the JSON-RPC error it got.`, 'code -32602', pretty(outcome.error.code));
      }
    },
  };
}

/** Modern era only: every request the client wrote carried the version in its _meta envelope. */
const ENVELOPE: Check<ClientCheckContext> = {
  id: 'era-envelope',
  title: `every request your ModernSession wrote carries _meta["${META_PROTOCOL_VERSION}"] = ${MODERN_PROTOCOL_VERSION}`,
  code: `for (const request of clientStdin) request.params._meta['${META_PROTOCOL_VERSION}'];`,
  async run({ driver, watch }) {
    await driver.flush();
    const requests = sentRequests(watch);
    const bare = requests.filter((request) => (request.params as { _meta?: Record<string, unknown> } | undefined)?._meta?.[META_PROTOCOL_VERSION] !== MODERN_PROTOCOL_VERSION);
    if (requests.length === 0 || bare.length > 0) {
      throw new CheckFailure('In 2026-07-28 there is no handshake: each request says its version in params._meta.', `every request: _meta["${META_PROTOCOL_VERSION}"] = "${MODERN_PROTOCOL_VERSION}"`, pretty(bare.map((request) => ({ method: request.method, params: request.params }))));
    }
  },
};

/** The close check as exercise 3 has it: stdin ends and the SDK server exits with code 0. */
const CLOSE = CLIENT_CHECKS.find((check) => check.id === 'close')!;

export function eraClientChecks(server: ClientCheckServer): readonly Check<ClientCheckContext>[] {
  const checks = [discoverCheck(server), LIST_TOOLS, CALL_ECHO, unknownToolCheck(server)];
  return server === 'sdk1' ? [...checks, CLOSE] : [...checks, ENVELOPE, CLOSE];
}

/** Starts the learner's exercise-7 file (through an era LearnerDriver) on a started server, runs the era checks, cleans up. */
export async function checkEraClient(wire: Wire, driver: ClientDriver, options: ClientCheckOptions = {}): Promise<SdkCheckReport> {
  const watch = watchServer(wire);
  const limitMs = options.limitMs ?? DEFAULT_CHECK_LIMIT_MS;
  try {
    const stdin = heldWrites(wire);
    const started = await driver.start(stdin, 'ndjson');
    if (!started.ok) return errorReport('client', `Your exercise 7 client did not start: ${describeError(started.error)}`);
    return await runChecks(eraClientChecks(options.server ?? 'sdk2-modern'), { driver, watch, stdin }, { suite: 'client', limitMs, watch, onResult: options.onResult });
  } finally {
    watch.dispose();
    driver.dispose();
    wire.kill();
  }
}
