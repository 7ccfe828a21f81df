// The local bridge: lets a page run the REAL echo server as a child process of this machine.
// It hangs off an existing HTTP server (ours from `npm start`, or Vite's) and takes WebSocket
// upgrades on /bridge. Every connection runs one server, through the tap's code run in-process
// (tap-core.ts); the page then sees the same tap lines a WebContainer's tap.mjs would produce
// (see bridge-session.ts and tap-protocol.ts).
//
// What keeps it from being a remote shell: it binds where its HTTP server binds (loopback by
// default), it checks the Origin and a per-start token before the upgrade (bridge-auth.ts), and it
// spawns only the programs it ships, with arguments picked from closed sets (bridge-messages.ts).
// The one program that runs code a page sent, learner-server, is accepted only when the bridge is
// on loopback, was started with --learner-code-in-node, and has an OS sandbox to run it in
// (learnerCode; learner-sandbox.ts); then it runs there, under Node's permission model too.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { checkUpgradeRequest } from './bridge-auth.ts';
import { rawHttpResponse } from './security-headers.ts';
import { BRIDGE_PATH } from '../src/runtime/bridge-messages.ts';
import type { LearnerCodeMode, LearnerCodeRefusal } from '../src/runtime/bridge-messages.ts';
import { BridgeSession, DEFAULT_START_TIMEOUT_MS, type SessionLimits } from './bridge-session.ts';
import type { LearnerSandbox } from './learner-sandbox.ts';

/** Whether this bridge runs learner-written code: only in a sandbox, otherwise never, and why. */
export type LearnerCodeOnBridge = { run: 'sandboxed'; sandbox: LearnerSandbox } | { run: 'never'; why: LearnerCodeRefusal };

export function learnerCodeMode(learnerCode: LearnerCodeOnBridge): LearnerCodeMode {
  return learnerCode.run === 'sandboxed' ? 'sandboxed' : learnerCode.why;
}

export interface BridgeOptions {
  /** The per-start secret the page must pass as `?token=`. */
  token: string;
  /** Origins allowed to connect; a function when they are only known once the server listens. */
  allowedOrigins: (() => readonly string[]) | readonly string[];
  /** Where echo-server.mjs and sdk-echo-server.mjs live. */
  programsDir: string;
  /** Most servers running at once, over all connections. */
  maxTotal?: number;
  /** How long a connection may wait before its start message; default 10 s. */
  startTimeoutMs?: number;
  /**
   * Run the learner's exercise-4 server (program learner-server: code the page sends)? Required,
   * so every caller decides it visibly: sandboxed only for a loopback bridge whose user opted in
   * and whose machine has the sandbox; otherwise never, with the reason the page shows.
   */
  learnerCode: LearnerCodeOnBridge;
  /** Time limits of a connection (paused socket, ping, learner heartbeat); tests make them small. */
  sessionLimits?: Partial<SessionLimits>;
  /** Where the bridge reports refusals and failed starts; defaults to console.error. */
  log?: (line: string) => void;
}

export interface Bridge {
  /** Handle an HTTP upgrade if it is for /bridge (then true: the socket is taken care of). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Close every connection and wait until every process it started is gone. */
  closeAll(): Promise<void>;
  /** Last resort when the bridge itself is dying: SIGKILL every process group now, synchronously. */
  killAllNow(): void;
  readonly activeProcesses: number;
  /** Process ids of the running servers (each leads its own process group), for tests. */
  readonly serverPids: readonly number[];
  /** Connections whose socket is paused by backpressure now, for tests. */
  readonly pausedConnections: number;
}

export const DEFAULT_MAX_TOTAL = 64;
// A frame may be up to 10 MiB (DEFAULT_MAX_MESSAGE_BYTES); as base64 inside a command line that is
// about 13.4 MiB. Anything bigger is not a command we would relay.
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export function createBridge(options: BridgeOptions): Bridge {
  const learnerCode = options.learnerCode as LearnerCodeOnBridge | undefined;
  if (learnerCode?.run !== 'sandboxed' && learnerCode?.run !== 'never') {
    throw new Error("createBridge needs learnerCode: { run: 'sandboxed', sandbox } only for an opted-in loopback bridge, else { run: 'never', why }");
  }
  const maxTotal = options.maxTotal ?? DEFAULT_MAX_TOTAL;
  const log = options.log ?? ((line: string) => console.error(`[bridge] ${line}`));
  const allowedOrigins = (): readonly string[] =>
    typeof options.allowedOrigins === 'function' ? options.allowedOrigins() : options.allowedOrigins;

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });
  const sessions = new Set<BridgeSession>();
  const running = new Set<BridgeSession>();
  let closing = false;

  const context = {
    programsDir: options.programsDir,
    policy: { learnerCode: learnerCodeMode(learnerCode) },
    learnerSandbox: learnerCode.run === 'sandboxed' ? learnerCode.sandbox : null,
    limits: options.sessionLimits,
    startTimeoutMs: options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
    log,
    admit: (): string | null => {
      if (closing) return 'the bridge is shutting down';
      if (running.size >= maxTotal) return `the bridge already runs ${running.size} servers, its limit (${maxTotal}); close another tab or run first`;
      return null;
    },
    processStarted: (session: BridgeSession) => void running.add(session),
    processEnded: (session: BridgeSession) => void running.delete(session),
  };

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(req.url ?? '/', 'http://bridge.invalid');
    if (url.pathname !== BRIDGE_PATH) return false;
    const check = closing ? { ok: false as const, reason: 'the bridge is shutting down' } : checkUpgradeRequest(req, url, { token: options.token, allowedOrigins: allowedOrigins() });
    if (!check.ok) {
      log(`refused an upgrade from ${req.headers.origin ?? 'no origin'}: ${check.reason}`);
      rejectUpgrade(socket, check.reason);
      return true;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      // The Origin passed the check above: mcp-http lets this page in (and no other local page).
      const session = new BridgeSession(ws, context, req.headers.origin);
      sessions.add(session);
      void session.ended.then(() => sessions.delete(session));
    });
    return true;
  }

  async function closeAll(): Promise<void> {
    closing = true;
    const all = [...sessions];
    for (const session of all) session.shutdown();
    // Refused sockets may still be in their closing handshake; nothing is left to say to them.
    for (const client of wss.clients) client.terminate();
    // Every session ends once its server exits; KILL_GRACE_MS after SIGTERM its process group is SIGKILLed,
    // so this cannot wait forever unless the OS itself refuses to reap.
    await Promise.all(all.map((session) => session.ended));
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  }

  function killAllNow(): void {
    closing = true;
    for (const session of sessions) session.killNow();
  }

  return {
    handleUpgrade,
    closeAll,
    killAllNow,
    get activeProcesses() {
      return running.size;
    },
    get pausedConnections() {
      return [...sessions].filter((session) => session.paused).length;
    },
    get serverPids() {
      return [...running].map((session) => session.serverPid).filter((pid): pid is number => pid !== undefined);
    },
  };
}

// Refuse before the handshake with a plain HTTP answer: the browser reports a failed connection,
// and a person using curl or the tests sees why.
// It carries the isolation headers like every other response.
function rejectUpgrade(socket: Duplex, reason: string): void {
  socket.on('error', () => {});
  socket.end(rawHttpResponse(403, 'Forbidden', reason));
}
