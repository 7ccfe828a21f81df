// The control messages of the local bridge's WebSocket, apart from the tap lines it relays.
//
//   page → bridge   {"type":"start","program":"echo-server","framing":"ndjson","faults":[]}   (first message, once)
//                   {"type":"start","program":"learner-server",…,"learnerServer":{"code":"…","file":"server.ts"}}
//                   (learner-server: only a loopback bridge started with --learner-code-in-node,
//                   on a machine with an OS sandbox, accepts it)
//                   {"type":"start","program":"mcp-http","framing":"ndjson","faults":[],"tools":"features"}
//                   (tools: only with mcp-http, one of MCP_HTTP_TOOL_SETS)
//                   {"type":"start","program":"mcp-http","framing":"ndjson","faults":[],"auth":"self"}
//                   (auth: only "self", only with mcp-http's echo tools and no fault: the server runs
//                   its own authorization server on its own origin)
//   bridge → page   {"type":"started"}  or  {"type":"refused","reason":"..."}
//   then            tap event lines one way, tap command lines the other (see tap-protocol.ts)
//
// The start message is the only thing a page can say about WHAT runs, so it is checked against
// closed sets and turned into an argv here: nothing the page sends ever reaches a command line
// except a name picked from these sets. Pure (no node:*), so a browser host may import the types.

import { FRAMING_NAMES, type FramingName } from '../protocol/framing/types.ts';
import { FAULT_NAMES, type FaultName } from '../protocol/faults.ts';
import type { LearnerServerSource, ProgramName, ProgramSpec } from './host.ts';
import { ECHO_ERAS, parseEchoServerArgs, type EchoEra } from './echo-server-args.ts';
import { isMcpHttpToolSet, MCP_HTTP_FAULTS, MCP_HTTP_TOOL_SETS, mcpHttpArguments, type McpHttpToolSet } from './mcp-http-args.ts';
import { checkLearnerServerSource, sessionArguments } from './learner-server-job.ts';

export const BRIDGE_PATH = '/bridge';
/**
 * Where the page asks for the bridge token (server/bridge-token-endpoint.ts). Not in index.html:
 * anything inside the page could be read back from a cache or a same-origin fetch of `/`.
 */
export const BRIDGE_TOKEN_PATH = '/__bridge/token';
/**
 * A header the page's token request must carry. A custom header makes any cross-origin request a
 * CORS preflight, which the server never answers, and no <img>, <script>, form or link can send it.
 */
export const BRIDGE_TOKEN_REQUEST_HEADER = 'X-MCP-Bridge-Token-Request';

/** The eras sdk2-echo-server can be started in (SDK 2.4.0's serveStdio: both, or modern mode). */
export const SDK2_ERAS: readonly EchoEra[] = ['dual', 'modern'];

/** Every program the bridge can spawn; each is `<programsDir>/<name>.mjs`. */
export const BRIDGE_PROGRAMS: readonly ProgramName[] = ['echo-server', 'sdk-echo-server', 'sdk2-echo-server', 'learner-server', 'mcp-http', 'sdk-http-server'];

export interface BridgeStartMessage {
  type: 'start';
  program: ProgramName;
  framing: FramingName;
  faults: FaultName[];
  /** Only with program 'learner-server'. */
  learnerServer?: LearnerServerSource;
  /** Only with program 'echo-server': one of ECHO_ERAS, absent for the default (dual). */
  era?: EchoEra;
  /** Only with program 'mcp-http': one of MCP_HTTP_TOOL_SETS, absent for the default (echo). */
  tools?: McpHttpToolSet;
  /** Only with program 'mcp-http', the echo tools and no fault: "self" (mcp-http --auth=self). */
  auth?: 'self';
}

/**
 * Whether this bridge runs learner-written code (learner-server), and if not, why not:
 *   sandboxed      loopback, opted in with `npm start -- --learner-code-in-node`, OS sandbox found
 *   shared-bridge  `npm start --host`: never, the process would run on the instructor's machine
 *   not-enabled    loopback, but nobody opted in (the default): the page runs it in its worker
 *   no-sandbox     opted in, but this machine has no working OS sandbox (bubblewrap on Linux)
 * The page learns it from <meta name="mcp-bridge-learner-code"> (bridge-page.ts).
 */
export const LEARNER_CODE_MODES = ['sandboxed', 'shared-bridge', 'not-enabled', 'no-sandbox'] as const;
export type LearnerCodeMode = (typeof LEARNER_CODE_MODES)[number];
export type LearnerCodeRefusal = Exclude<LearnerCodeMode, 'sandboxed'>;

/** What this bridge lets a page run beyond the echo servers. */
export interface StartPolicy {
  learnerCode: LearnerCodeMode;
}

/** Why a shared bridge refuses learner-server; the page shows it as it is. */
export const SHARED_BRIDGE_LEARNER_REFUSAL =
  'this bridge is shared on the network (npm start --host), and a shared bridge never runs code sent by a page: ' +
  'it runs learner code only on a loopback bridge. Run `npm start` on your own machine to check your server there';

/** The English reason for each refusal (the page words its own, translated). */
export const LEARNER_CODE_REFUSALS: Readonly<Record<LearnerCodeRefusal, string>> = {
  'shared-bridge': SHARED_BRIDGE_LEARNER_REFUSAL,
  'not-enabled':
    'this bridge does not run code sent by a page unless it was started with `npm start -- --learner-code-in-node`; ' +
    'the in-browser worker runs your server instead',
  'no-sandbox':
    'this bridge was started with --learner-code-in-node, but this machine has no working sandbox for learner code ' +
    '(bubblewrap and prlimit on Linux), so it does not run code sent by a page; the in-browser worker runs your server instead',
};

export function isLearnerCodeMode(value: unknown): value is LearnerCodeMode {
  return typeof value === 'string' && (LEARNER_CODE_MODES as readonly string[]).includes(value);
}

export type BridgeReply = { type: 'started' } | { type: 'refused'; reason: string };

export type StartCheck = { ok: true; spec: ProgramSpec } | { ok: false; reason: string };

const START_FIELDS = new Set(['type', 'program', 'framing', 'faults', 'learnerServer', 'era', 'tools', 'auth']);

/**
 * Check one WebSocket text message as a start request. Never throws. The policy defaults to the
 * safe side: without one, learner-server is refused.
 */
export function parseStartMessage(text: string, policy: StartPolicy = { learnerCode: 'not-enabled' }): StartCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('the first message must be a JSON start message');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse('the start message must be a JSON object');
  const message = value as Record<string, unknown>;
  if (message.type !== 'start') return refuse('the first message must have "type":"start"');

  // Unknown fields are refused rather than ignored: a page that sends options we do not know
  // expects something we will not do.
  const unknown = Object.keys(message).filter((key) => !START_FIELDS.has(key));
  if (unknown.length > 0) return refuse(`unknown field(s) in start message: ${unknown.map(quoteName).join(', ')}`);

  const { program, framing, faults = [], learnerServer, era, tools, auth } = message;
  if (!isOneOf(BRIDGE_PROGRAMS, program)) return refuse(`unknown program; expected one of ${BRIDGE_PROGRAMS.join(', ')}`);
  if (program !== 'learner-server' && learnerServer !== undefined) return refuse('learnerServer goes only with program learner-server');
  if (!isOneOf(FRAMING_NAMES, framing)) return refuse(`unknown framing; expected one of ${FRAMING_NAMES.join(', ')}`);
  if (!Array.isArray(faults) || !faults.every((fault) => isOneOf(FAULT_NAMES, fault))) {
    return refuse(`faults must be a list of ${FAULT_NAMES.join(', ')}`);
  }
  if (new Set(faults).size !== faults.length) return refuse('a fault is listed twice');
  // The era is a name from a closed set too, and only the echo server has one.
  if (era !== undefined) {
    if (program === 'sdk2-echo-server') {
      // SDK 2.4.0's serveStdio: both eras, or modern mode; it has no legacy-only mode.
      if (!isOneOf(SDK2_ERAS, era)) return refuse(`unknown era for sdk2-echo-server; expected one of ${SDK2_ERAS.join(', ')}`);
    } else if (program !== 'echo-server') {
      return refuse('era goes only with program echo-server or sdk2-echo-server');
    } else if (!isOneOf(ECHO_ERAS, era)) {
      return refuse(`unknown era; expected one of ${ECHO_ERAS.join(', ')}`);
    }
  }

  if (auth !== undefined) {
    if (program !== 'mcp-http') return refuse('auth goes only with program mcp-http');
    if (auth !== 'self') return refuse('auth can only be "self"');
  }

  // The tool set too: a name from a closed set, and only mcp-http has one.
  if (tools !== undefined) {
    if (program !== 'mcp-http') return refuse('tools goes only with program mcp-http');
    if (!isMcpHttpToolSet(tools)) return refuse(`unknown tools for mcp-http; expected one of ${MCP_HTTP_TOOL_SETS.join(', ')}`);
  }

  const spec: ProgramSpec = { program, framing, faults: faults as FaultName[] };
  if (program === 'sdk2-echo-server') {
    if (framing !== 'ndjson') return refuse('sdk2-echo-server speaks ndjson only');
    if (faults.length > 0) return refuse('sdk2-echo-server takes no faults');
    return { ok: true, spec: era === 'modern' ? { ...spec, era } : spec };
  }
  if (program === 'sdk-http-server') {
    // The official SDK's Streamable HTTP server: no switches at all; its port is its own (port 0).
    if (framing !== 'ndjson') return refuse('sdk-http-server takes framing ndjson (its client transport speaks JSON lines)');
    if (faults.length > 0) return refuse('sdk-http-server takes no faults');
    return { ok: true, spec };
  }
  if (program === 'sdk-echo-server') {
    // The official SDK's server has no switches: it speaks NDJSON and has no fault injection.
    if (framing !== 'ndjson') return refuse('sdk-echo-server speaks ndjson only');
    if (faults.length > 0) return refuse('sdk-echo-server takes no faults');
    return { ok: true, spec };
  }
  if (program === 'mcp-http') {
    // The page's client speaks NDJSON lines to its HTTP transport; the server chooses its own port.
    if (framing !== 'ndjson') return refuse('mcp-http takes framing ndjson (its client transport speaks JSON lines)');
    const stdioOnly = spec.faults.filter((fault) => !MCP_HTTP_FAULTS.includes(fault));
    if (stdioOnly.length > 0) return refuse(`mcp-http has no ${stdioOnly.join(', ')} fault: it has no stdout frames`);
    if (auth !== undefined) {
      if (tools !== undefined && tools !== 'echo') return refuse('auth goes only with the echo tools');
      if (spec.faults.length > 0) return refuse('auth takes no faults');
      return { ok: true, spec: { ...spec, auth } };
    }
    return { ok: true, spec: tools === undefined || tools === 'echo' ? spec : { ...spec, tools } };
  }
  // Let the echo server's own argument parser judge combinations (e.g. a framing-only fault),
  // so the page hears "refused" now instead of seeing the process die with a usage error. The
  // learner's server runs inside the same session, so the same rules apply to it.
  if (era !== undefined && era !== 'dual') spec.era = era;
  const parsed = parseEchoServerArgs(echoServerArguments(spec));
  if (parsed.kind !== 'run') return refuse(parsed.kind === 'usage-error' ? parsed.message : 'invalid echo-server options');
  if (program === 'learner-server') {
    // Checked before the source: a bridge that does not run learner code says why, whatever was sent.
    if (policy.learnerCode !== 'sandboxed') return refuse(LEARNER_CODE_REFUSALS[policy.learnerCode]);
    if (learnerServer === undefined) return refuse('learner-server needs the learnerServer field: your server source');
    const source = checkLearnerServerSource(learnerServer);
    if (!source.ok) return refuse(source.reason);
    return { ok: true, spec: { ...spec, learnerServer: source.value } };
  }
  return { ok: true, spec };
}

/**
 * The program's own arguments for a checked spec (the program path goes in front of these).
 * learner-server takes its options from its job file instead, whose path the host appends.
 */
export function programArguments(spec: ProgramSpec): string[] {
  if (spec.program === 'sdk-echo-server' || spec.program === 'learner-server' || spec.program === 'sdk-http-server') return [];
  if (spec.program === 'sdk2-echo-server') return spec.era === 'modern' ? ['--era=modern'] : [];
  if (spec.program === 'mcp-http') return mcpHttpArguments(spec.faults, spec.tools, spec.auth);
  return echoServerArguments(spec);
}

/** The echo server's options; only a non-default era is written, so a dual-era argv is what it always was. */
function echoServerArguments(spec: ProgramSpec): string[] {
  const args = sessionArguments(spec.framing, spec.faults);
  return spec.era !== undefined && spec.era !== 'dual' ? [...args, `--era=${spec.era}`] : args;
}

export function encodeBridgeReply(reply: BridgeReply): string {
  return JSON.stringify(reply);
}

/** Read a bridge reply from a text message; null for anything else (such as a tap line). */
export function parseBridgeReply(text: string): BridgeReply | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const reply = value as Record<string, unknown>;
  if (reply.type === 'started') return { type: 'started' };
  if (reply.type === 'refused' && typeof reply.reason === 'string') return { type: 'refused', reason: reply.reason };
  return null;
}

function refuse(reason: string): StartCheck {
  return { ok: false, reason };
}

function isOneOf<T extends string>(allowed: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value);
}

// Field names come from the page: show them JSON-quoted and short, never as raw text in a log.
function quoteName(name: string): string {
  return JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
}
