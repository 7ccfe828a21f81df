// One bridge connection: one WebSocket, at most one tap process (which runs one server).
//
//   waiting --valid start--> running --tap exits / socket closes--> stopping --> ended
//   waiting --anything else, or no start in time--> ended (refused, close 1008)
//
// The socket and the process live and die together: the tap's exit closes the socket, and a
// closed socket kills the tap, so a page that goes away never leaves a server behind.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RawData, WebSocket } from 'ws';
import type { ProgramSpec } from '../src/runtime/host.ts';
import { TapLineSplitter, encodeTapCommand, parseTapCommand, type TapCommand } from '../src/runtime/tap-protocol.ts';
import { encodeBridgeReply, parseStartMessage, programArguments } from './bridge-messages.ts';

export type SessionStatus = 'waiting' | 'running' | 'stopping' | 'ended';

export interface SessionContext {
  programsDir: string;
  /** How long a new connection may take to send its start message. */
  startTimeoutMs: number;
  log(line: string): void;
  /** null if one more process may start now, otherwise the reason it may not. */
  admit(): string | null;
  processStarted(session: BridgeSession): void;
  processEnded(session: BridgeSession): void;
}

/** A page that connects and says nothing is holding a connection for nothing. */
export const DEFAULT_START_TIMEOUT_MS = 10_000;
/** How long a server gets to exit after SIGTERM before its whole process group is SIGKILLed. */
export const KILL_GRACE_MS = 2_000;
// A page that stops reading must not make us buffer without bound: pause the tap's stdout (and so,
// through the pipe, the tap and the server) until the socket drains.
const HIGH_WATER_BYTES = 4 * 1024 * 1024;
const LOW_WATER_BYTES = 1024 * 1024;
// The page may stop the server, but not freeze it (SIGSTOP) or send it anything exotic.
const ALLOWED_SIGNALS = new Set(['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGKILL']);

const POLICY_VIOLATION = 1008;
const NORMAL_CLOSURE = 1000;

export class BridgeSession {
  private currentStatus: SessionStatus = 'waiting';
  private tap: ChildProcessWithoutNullStreams | null = null;
  private startTimer: ReturnType<typeof setTimeout> | null;
  private killTimer: ReturnType<typeof setTimeout> | null = null;
  private stdoutPaused = false;
  private resolveEnded!: () => void;
  /** Settles once the session holds no process any more (or never started one). */
  readonly ended: Promise<void> = new Promise((resolve) => (this.resolveEnded = resolve));

  constructor(
    private readonly socket: WebSocket,
    private readonly context: SessionContext,
  ) {
    const timeout = context.startTimeoutMs;
    this.startTimer = setTimeout(() => this.refuse(`no start message within ${timeout} ms`), timeout);
    socket.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    socket.on('close', () => this.onSocketClosed());
    socket.on('error', (error) => context.log(`socket error: ${error.message}`));
  }

  get status(): SessionStatus {
    return this.currentStatus;
  }

  /** The tap's process id while it runs (it leads a process group holding the server too). */
  get tapPid(): number | undefined {
    return this.tap?.pid;
  }

  /** Bridge shutting down: drop the socket now and stop the process (SIGTERM, then SIGKILL). */
  shutdown(): void {
    this.socket.terminate();
    this.onSocketClosed();
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
    const check = parseStartMessage(text);
    if (!check.ok) return this.refuse(check.reason);
    const notAdmitted = this.context.admit();
    if (notAdmitted !== null) return this.refuse(notAdmitted);
    this.spawnTap(check.spec);
  }

  private spawnTap(spec: ProgramSpec): void {
    const tapPath = join(this.context.programsDir, 'tap.mjs');
    const programPath = join(this.context.programsDir, `${spec.program}.mjs`);
    for (const path of [tapPath, programPath]) {
      if (!existsSync(path)) return this.refuse(`the bridge has no ${path.slice(this.context.programsDir.length + 1)}: build the Node programs first`);
    }
    // Our own Node binary and fixed paths; no shell, nothing from the page but names checked
    // against closed sets. `detached` gives the tap its own process group, so one kill reaches
    // the server it spawned as well, even if the tap itself is already gone.
    const tap = spawn(process.execPath, [tapPath, '--', process.execPath, programPath, ...programArguments(spec)], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      env: childEnvironment(),
      windowsHide: true,
    });
    this.tap = tap;
    this.currentStatus = 'running';
    this.context.processStarted(this);
    this.send(encodeBridgeReply({ type: 'started' }));

    const lines = new TapLineSplitter();
    tap.stdout.setEncoding('utf8');
    tap.stdout.on('data', (text: string) => lines.push(text).forEach((line) => this.relayLine(line)));
    const logLines = new TapLineSplitter();
    const prefix = `[tap ${tap.pid ?? '?'} ${spec.program}]`;
    tap.stderr.setEncoding('utf8');
    tap.stderr.on('data', (text: string) => logLines.push(text).forEach((line) => this.context.log(`${prefix} ${line}`)));
    // The tap may be gone before a command reaches it: EPIPE is expected then, not a crash.
    tap.stdin.on('error', () => {});
    tap.on('error', (error) => {
      this.context.log(`${prefix} ${error.message}`);
      this.processGone();
    });
    // 'close' comes after the exit AND the end of stdout, so the last lines are relayed first.
    tap.on('close', () => {
      lines.flush().forEach((line) => this.relayLine(line));
      logLines.flush().forEach((line) => this.context.log(`${prefix} ${line}`));
      this.processGone();
      if (this.socket.readyState === this.socket.OPEN) this.socket.close(NORMAL_CLOSURE, 'server exited');
    });
  }

  private relayLine(line: string): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    this.socket.send(line, () => {
      if (this.stdoutPaused && this.socket.bufferedAmount < LOW_WATER_BYTES) this.resumeStdout();
    });
    if (!this.stdoutPaused && this.socket.bufferedAmount > HIGH_WATER_BYTES) {
      this.stdoutPaused = true;
      this.tap?.stdout.pause();
    }
  }

  private resumeStdout(): void {
    this.stdoutPaused = false;
    this.tap?.stdout.resume();
  }

  private handleCommandText(text: string): void {
    const command = toTapCommand(text);
    if (command) {
      this.tap?.stdin.write(`${encodeTapCommand(command)}\n`);
      return;
    }
    if (isStartMessage(text)) {
      this.send(encodeBridgeReply({ type: 'refused', reason: 'this connection already runs a server: one process per connection' }));
    }
    // Anything else is dropped: only well-formed tap commands reach the tap.
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
    // Nobody reads any more, but the pipe must keep flowing or a blocked tap could never exit.
    if (this.stdoutPaused) this.resumeStdout();
    this.tap.kill('SIGTERM');
    this.killTimer = setTimeout(() => this.killProcessGroup('SIGKILL'), KILL_GRACE_MS);
  }

  private processGone(): void {
    if (this.currentStatus === 'ended') return;
    if (this.killTimer) clearTimeout(this.killTimer);
    // Sweep: if the tap died without taking the server along (SIGKILL, crash), the group still
    // holds the server. When the tap exited normally the group is empty and this is a no-op.
    this.killProcessGroup('SIGKILL');
    this.currentStatus = 'ended';
    this.context.processEnded(this);
    this.resolveEnded();
  }

  private killProcessGroup(signal: NodeJS.Signals): void {
    const pid = this.tap?.pid;
    if (pid === undefined) return;
    try {
      if (process.platform === 'win32') this.tap?.kill(signal);
      else process.kill(-pid, signal);
    } catch {
      // ESRCH: nothing left in the group, which is the point.
    }
  }

  private send(text: string): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(text);
  }

  private clearStartTimer(): void {
    if (this.startTimer) clearTimeout(this.startTimer);
    this.startTimer = null;
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

/**
 * A message is a command only if it is a whole JSON object whose fields make a valid tap command.
 * It is rebuilt from the checked fields, so what reaches the tap is always one clean line.
 */
function toTapCommand(text: string): TapCommand | null {
  const value = parseObject(text);
  if (!value) return null;
  const command = parseTapCommand(JSON.stringify({ cmd: value.cmd, b64: value.b64, signal: value.signal }));
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

// The bundled programs need no loader: a NODE_OPTIONS inherited from tsx or a test runner would
// only load it into every tap and server, slowing each start.
function childEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return env;
}
