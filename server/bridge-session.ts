// One bridge connection: one WebSocket, at most one server process.
//
//   waiting --valid start--> running --server exits / socket closes--> stopping --> ended
//   waiting --anything else, or no start in time--> ended (refused, close 1008)
//
// The tap runs in-process (tap-core.ts): the server is the bridge's own child, and the tap's event
// lines go straight onto the socket. Lines produced in the same event-loop turn travel together in
// one text message, separated by '\n' (tap-wire's page side splits them).
//
// The socket and the process live and die together: the server's exit closes the socket, and a
// closed socket kills the server's process group, so a page that goes away never leaves a server
// behind. A socket the bridge had to pause (the page or the server stopped reading) may stay
// paused at most pausedLimitMs, and a running socket must answer a ping every pingIntervalMs:
// either failing ends the connection and the process group, so no half-open socket keeps a server.
// A paused socket is not read, so it would never see the page's FIN or RST (and its pongs cannot
// be read either): while paused it is pinged every pausedPingMs without waiting for a pong, and a
// ping the kernel cannot write (the peer reset or closed the connection) ends it at once. So a
// page that drops while a learner server ignores its stdin ends the sandbox within about a second,
// not at the paused limit.
//
// learner-server (code the page sent) runs only in the OS sandbox (learner-sandbox.ts), and must
// beat its heartbeat pipe: after heartbeatLimitMs of silence its group is killed, with the stderr
// line the worker host shows for the same loop.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RawData, WebSocket } from 'ws';
import { isHttpProgram, type ProgramSpec } from '../src/runtime/host.ts';
import { tapCommandOf, type TapCommand } from '../src/runtime/tap-protocol.ts';
import { encodeBridgeReply, parseStartMessage, programArguments, type StartPolicy } from '../src/runtime/bridge-messages.ts';
import { encodeLearnerServerJob } from '../src/runtime/learner-server-job.ts';
import { LEARNER_SERVER_HARD_LIMIT_MS, stuckServerLine } from '../src/sandbox/learner-server-constants.ts';
import type { LearnerSandbox } from './learner-sandbox.ts';
import { LineBatch } from './line-batch.ts';
import { startTap, type TapCore, type TapEnd } from './tap-core.ts';
import { startRelayTap } from './relay-tap.ts';

export type SessionStatus = 'waiting' | 'running' | 'stopping' | 'ended';

export interface SessionContext {
  programsDir: string;
  /** What a page may run beyond the echo servers (learner-server only sandboxed, opted in). */
  policy: StartPolicy;
  /** The OS sandbox learner-server runs in; required when policy.learnerCode is 'sandboxed'. */
  learnerSandbox: LearnerSandbox | null;
  /** How long a new connection may take to send its start message. */
  startTimeoutMs: number;
  limits?: Partial<SessionLimits>;
  log(line: string): void;
  /** null if one more process may start now, otherwise the reason it may not. */
  admit(): string | null;
  processStarted(session: BridgeSession): void;
  processEnded(session: BridgeSession): void;
}

/** A page that connects and says nothing is holding a connection for nothing. */
export const DEFAULT_START_TIMEOUT_MS = 10_000;

export interface SessionLimits {
  /** Longest a socket may stay paused (either side stopped reading) before the connection ends. */
  pausedLimitMs: number;
  /** A running socket is pinged this often and must have answered the previous ping. */
  pingIntervalMs: number;
  /** learner-server: silence on its heartbeat pipe after which its group is killed. */
  heartbeatLimitMs: number;
  /** While paused, a ping goes out this often; one that fails to write means the page is gone. */
  pausedPingMs: number;
  /** learner-server: after the socket closes, SIGTERM, then SIGKILL this much later. */
  learnerKillGraceMs: number;
}

export const DEFAULT_SESSION_LIMITS: Readonly<SessionLimits> = {
  pausedLimitMs: 30_000,
  pingIntervalMs: 30_000,
  heartbeatLimitMs: LEARNER_SERVER_HARD_LIMIT_MS,
  pausedPingMs: 250,
  // Learner code has nothing to flush and may ignore SIGTERM (globalThis.process.on): a page that
  // went away ends its sandbox within 2 s, so the grace is short.
  learnerKillGraceMs: 250,
};
const HEARTBEAT_CHECK_MS = 250;
/** How long a server we ship gets to exit after SIGTERM before its whole process group is SIGKILLed. */
export const KILL_GRACE_MS = 2_000;
// A page that stops reading must not make us buffer without bound: above the high mark, stop
// reading the server's stdout and stderr (the pipes then hold the server) and the page's commands
// (whose c2s lines would pile up too) until the socket drains. A server that stops reading its
// stdin is held the same way: the page's writes wait in the page, not in the bridge.
const HIGH_WATER_BYTES = 4 * 1024 * 1024;
const LOW_WATER_BYTES = 1024 * 1024;
// The page may stop the server, but not freeze it (SIGSTOP) or send it anything exotic.
const ALLOWED_SIGNALS = new Set(['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGKILL']);

const POLICY_VIOLATION = 1008;
const NORMAL_CLOSURE = 1000;

export class BridgeSession {
  private currentStatus: SessionStatus = 'waiting';
  private tap: TapCore | null = null;
  private startTimer: ReturnType<typeof setTimeout> | null;
  private killTimer: ReturnType<typeof setTimeout> | null = null;
  private pausedTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private pausedPingTimer: ReturnType<typeof setInterval> | null = null;
  private learner = false;
  private awaitingPong = false;
  private heartbeatTimer: ReturnType<typeof setInterval> | null = null;
  private lastHeartbeat = 0;
  private readonly limits: SessionLimits;
  private readonly batch = new LineBatch((text) => this.sendBatch(text));
  private outputPaused = false;
  private inputPaused = false;
  private resolveEnded!: () => void;
  /** Settles once the session holds no process any more (or never started one). */
  readonly ended: Promise<void> = new Promise((resolve) => (this.resolveEnded = resolve));

  constructor(
    private readonly socket: WebSocket,
    private readonly context: SessionContext,
    /** The page's Origin, checked by the bridge before the upgrade: mcp-http admits it. */
    private readonly pageOrigin?: string,
  ) {
    this.limits = { ...DEFAULT_SESSION_LIMITS, ...context.limits };
    const timeout = context.startTimeoutMs;
    this.startTimer = setTimeout(() => this.refuse(`no start message within ${timeout} ms`), timeout);
    socket.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    socket.on('close', () => this.onSocketClosed());
    socket.on('pong', () => (this.awaitingPong = false));
    socket.on('error', (error) => context.log(`socket error: ${error.message}`));
  }

  get status(): SessionStatus {
    return this.currentStatus;
  }

  /** True while the socket is not read (backpressure either way): the paused-socket rules apply. */
  get paused(): boolean {
    return this.currentStatus === 'running' && (this.outputPaused || this.inputPaused);
  }

  /** The server's process id while it runs (it leads its own process group). */
  get serverPid(): number | undefined {
    return this.tap?.pid;
  }

  /** Bridge shutting down: drop the socket now and stop the process (SIGTERM, then SIGKILL). */
  shutdown(): void {
    this.socket.terminate();
    this.onSocketClosed();
  }

  /** The bridge is dying (uncaught error, exit): SIGKILL the process group now, synchronously. */
  killNow(): void {
    this.tap?.killGroup('SIGKILL');
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    switch (this.currentStatus) {
      case 'waiting':
        this.clearStartTimer();
        if (isBinary) return this.refuse('the start message must be text');
        return this.handleStart(rawText(data));
      case 'running':
        if (!isBinary) this.handleCommandText(rawText(data));
        return;
      case 'stopping':
      case 'ended':
        return;
    }
  }

  private handleStart(text: string): void {
    const check = parseStartMessage(text, this.context.policy);
    if (!check.ok) return this.refuse(check.reason);
    const notAdmitted = this.context.admit();
    if (notAdmitted !== null) return this.refuse(notAdmitted);
    this.startServer(check.spec);
  }

  private startServer(spec: ProgramSpec): void {
    const programFile = `${spec.program}.mjs`;
    const programPath = join(this.context.programsDir, programFile);
    if (!existsSync(programPath)) return this.refuse(`the bridge has no ${programFile}: build the Node programs first`);
    let argv: string[];
    let job: Uint8Array | null = null;
    try {
      argv = this.argvFor(spec, programPath);
      if (spec.program === 'learner-server') job = this.jobFor(spec);
    } catch (error) {
      return this.refuse(`could not prepare ${spec.program}: ${(error as Error).message}`);
    }
    this.currentStatus = 'running';
    this.context.processStarted(this);
    // Sent before the tap starts, so "started" is always a message of its own, ahead of every line.
    this.send(encodeBridgeReply({ type: 'started' }));
    // Our own Node binary and a fixed path; no shell, nothing from the page but names checked
    // against closed sets. The server's own process group lets one kill reach anything it spawns.
    // mcp-http also relays loopback TCP connections to the port it prints (relay-tap.ts).
    this.tap = (isHttpProgram(spec.program) ? startRelayTap : startTap)({
      argv,
      env: childEnvironment(),
      ownProcessGroup: true,
      // c2s and stderr lines may wait for the reply and share its message (line-batch.ts).
      onLine: (line, event) => this.batch.add(line, event.ev === 'c2s' || event.ev === 'stderr'),
      onEnd: (end) => this.serverEnded(spec, end),
      ...(job ? { sandboxPipes: { job, onHeartbeat: () => (this.lastHeartbeat = Date.now()) } } : {}),
    });
    this.learner = job !== null;
    if (job) this.watchHeartbeat();
    this.pingTimer = setInterval(() => this.ping(), this.limits.pingIntervalMs);
  }

  /** Our own Node binary and a fixed path, plus arguments from closed sets; learner-server only inside the sandbox. */
  private argvFor(spec: ProgramSpec, programPath: string): string[] {
    if (spec.program === 'mcp-http' && this.pageOrigin !== undefined) return [process.execPath, programPath, ...programArguments(spec), `--allow-origin=${this.pageOrigin}`];
    if (spec.program !== 'learner-server') return [process.execPath, programPath, ...programArguments(spec)];
    const sandbox = this.context.learnerSandbox;
    // parseStartMessage already refused unless the policy says 'sandboxed'; this is the second lock.
    if (this.context.policy.learnerCode !== 'sandboxed' || !sandbox) throw new Error('this bridge has no sandbox for learner code');
    return sandbox.argv(programPath);
  }

  /** The job (the learner's source, framing and faults) travels through a pipe, never a host file. */
  private jobFor(spec: ProgramSpec): Uint8Array {
    if (!spec.learnerServer) throw new Error('no learner source');
    return Buffer.from(encodeLearnerServerJob({ framing: spec.framing, faults: [...spec.faults], source: spec.learnerServer }), 'utf8');
  }

  /** The same rule as the worker host: once beating, silence longer than the limit means stuck. */
  private watchHeartbeat(): void {
    const limitMs = this.limits.heartbeatLimitMs;
    this.heartbeatTimer = setInterval(() => {
      if (this.currentStatus !== 'running' || this.lastHeartbeat === 0) return;
      if (Date.now() - this.lastHeartbeat <= limitMs) return;
      this.stopTimers();
      this.context.log(`learner-server stopped beating for ${limitMs} ms: killed`);
      this.tap?.reportStderr(`${stuckServerLine(limitMs)}\n`);
      this.tap?.killGroup('SIGKILL');
    }, Math.min(HEARTBEAT_CHECK_MS, limitMs));
  }

  /** A socket that does not answer a ping within an interval is gone (half-open): end it. */
  private ping(): void {
    if (this.currentStatus !== 'running' || this.outputPaused || this.inputPaused) return;
    if (this.awaitingPong) {
      this.context.log(`no pong within ${this.limits.pingIntervalMs} ms: closing the connection and its server`);
      this.shutdown();
      return;
    }
    this.awaitingPong = true;
    try {
      this.socket.ping();
    } catch {
      this.shutdown();
    }
  }

  private sendBatch(text: string): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(text, () => {
      if (this.outputPaused && this.socket.bufferedAmount < LOW_WATER_BYTES) {
        this.outputPaused = false;
        this.tap?.resumeOutput();
        this.updateSocketReading();
      }
    });
    if (!this.outputPaused && this.socket.bufferedAmount > HIGH_WATER_BYTES) {
      this.outputPaused = true;
      this.tap?.pauseOutput();
      this.updateSocketReading();
    }
  }

  private handleCommandText(text: string): void {
    const command = toTapCommand(text);
    if (command) {
      const tap = this.tap;
      if (!tap) return;
      tap.run(command);
      if (command.cmd === 'write' && !this.inputPaused && tap.inputBacklogBytes > HIGH_WATER_BYTES) {
        this.inputPaused = true;
        this.updateSocketReading();
        tap.onInputDrained(() => {
          this.inputPaused = false;
          this.updateSocketReading();
        });
      }
      return;
    }
    if (isStartMessage(text)) {
      this.send(encodeBridgeReply({ type: 'refused', reason: 'this connection already runs a server: one process per connection' }));
    }
    // Anything else is dropped: only well-formed tap commands reach the tap.
  }

  private updateSocketReading(): void {
    if (this.currentStatus !== 'running') return;
    if (this.outputPaused || this.inputPaused) {
      this.socket.pause();
      this.pausedPingTimer ??= setInterval(() => this.pingWhilePaused(), this.limits.pausedPingMs);
      // Paused is a state with a deadline: a server that never reads its stdin again (or a page
      // that never reads again) must not hold the connection and the process forever.
      this.pausedTimer ??= setTimeout(() => {
        this.context.log(`connection paused for ${this.limits.pausedLimitMs} ms (${this.pauseReason()}): closing it and its server`);
        this.shutdown();
      }, this.limits.pausedLimitMs);
    } else {
      this.socket.resume();
      if (this.pausedTimer) clearTimeout(this.pausedTimer);
      if (this.pausedPingTimer) clearInterval(this.pausedPingTimer);
      this.pausedTimer = this.pausedPingTimer = null;
      // Pongs that arrived while paused were not read; start the ping count afresh.
      this.awaitingPong = false;
    }
  }

  private pauseReason(): string {
    return this.inputPaused ? 'the server stopped reading its stdin' : 'the page stopped reading';
  }

  /**
   * The liveness check of a paused socket. Its pong could not be read, so none is awaited; but the
   * write itself fails once the peer is gone (after a RST at once, after a FIN on the write after
   * the one the peer's kernel answered with RST): then the page is gone, and so is its server.
   */
  private pingWhilePaused(): void {
    if (this.currentStatus !== 'running') return;
    const gone = (): void => {
      if (this.currentStatus !== 'running') return;
      this.context.log(`socket paused (${this.pauseReason()}) and the page is gone: closing it and its server`);
      this.shutdown();
    };
    try {
      this.socket.ping(undefined, undefined, (error) => {
        if (error) gone();
      });
    } catch {
      gone();
    }
  }

  private serverEnded(spec: ProgramSpec, end: TapEnd): void {
    if (end.kind === 'spawn-failed') this.context.log(`could not start ${spec.program}: ${end.message}`);
    // The exit line (or the spawn error) goes out before the close frame.
    this.batch.flush();
    this.processGone();
    if (this.socket.readyState === this.socket.OPEN) {
      this.socket.close(NORMAL_CLOSURE, end.kind === 'exited' ? 'server exited' : 'server could not start');
    }
  }

  private refuse(reason: string): void {
    this.clearStartTimer();
    if (this.currentStatus !== 'waiting') return;
    this.currentStatus = 'ended';
    this.resolveEnded();
    this.context.log(`refused a start: ${reason}`);
    this.send(encodeBridgeReply({ type: 'refused', reason }));
    if (this.socket.readyState === this.socket.OPEN) this.socket.close(POLICY_VIOLATION, 'refused');
  }

  private onSocketClosed(): void {
    this.clearStartTimer();
    if (this.currentStatus === 'waiting') {
      this.currentStatus = 'ended';
      this.resolveEnded();
      return;
    }
    if (this.currentStatus !== 'running' || !this.tap) return;
    this.currentStatus = 'stopping';
    this.stopTimers();
    this.batch.clear();
    // Nobody reads any more, but the pipes must keep flowing or a server blocked on a full pipe
    // could never get to its exit.
    if (this.outputPaused) this.tap.resumeOutput();
    this.tap.killGroup('SIGTERM');
    // A stopped process (SIGSTOP, a debugger) only acts on SIGTERM once it runs again.
    this.tap.killGroup('SIGCONT');
    this.killTimer = setTimeout(() => this.tap?.killGroup('SIGKILL'), this.learner ? this.limits.learnerKillGraceMs : KILL_GRACE_MS);
  }

  private processGone(): void {
    if (this.currentStatus === 'ended') return;
    if (this.killTimer) clearTimeout(this.killTimer);
    // Sweep: anything the server spawned and left behind is still in its group. When the server
    // was alone (the usual case) the group is empty and this is a no-op.
    this.tap?.killGroup('SIGKILL');
    this.stopTimers();
    this.currentStatus = 'ended';
    this.context.processEnded(this);
    this.resolveEnded();
  }

  private send(text: string): void {
    // A control message must not overtake the lines queued before it.
    this.batch.flush();
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(text);
  }

  private stopTimers(): void {
    for (const timer of [this.pausedTimer, this.heartbeatTimer, this.pingTimer, this.pausedPingTimer]) if (timer) clearTimeout(timer);
    this.pausedTimer = this.heartbeatTimer = this.pingTimer = this.pausedPingTimer = null;
  }

  private clearStartTimer(): void {
    if (this.startTimer) clearTimeout(this.startTimer);
    this.startTimer = null;
  }
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/**
 * A message is a command only if it is a whole JSON object whose fields make a valid tap command.
 * It is rebuilt from the checked fields, so what reaches the tap is always one clean command.
 */
function toTapCommand(text: string): TapCommand | null {
  const command = tapCommandOf(parseObject(text));
  if (command?.cmd === 'kill' && command.signal !== undefined && !ALLOWED_SIGNALS.has(command.signal)) return null;
  return command;
}

function isStartMessage(text: string): boolean {
  return parseObject(text)?.type === 'start';
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

// An explicit, minimal environment: the bundled programs need nothing from ours, and ours may hold
// tokens and keys (and a NODE_OPTIONS from tsx or a test runner that would load into every server).
// learner-server's sandbox clears even this and sets its own (learner-sandbox.ts).
function childEnvironment(): NodeJS.ProcessEnv {
  return { LANG: 'C.UTF-8' };
}
