// The Node side of a page talking to the local bridge: a WebSocket client that speaks the bridge's
// start handshake and the tap protocol, and presents the server as a ByteTransport so the
// project's McpClient can run over it unchanged. Plus the bookkeeping the bridge tests share:
// a private build of the programs, a bridge on a loopback port, and process checks.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { buildNodePrograms } from '../../scripts/build-node-programs.ts';
import { createBridge, type Bridge, type BridgeOptions, type LearnerCodeOnBridge } from '../../server/bridge.ts';
import { detectLearnerSandbox, type LearnerSandbox } from '../../server/learner-sandbox.ts';
import { parseBridgeReply } from '../../src/runtime/bridge-messages.ts';
import { createBridgeHost } from '../../src/runtime/bridge-host.ts';
import type { Host } from '../../src/runtime/host.ts';
import {
  base64ToBytes,
  bytesToBase64,
  encodeTapCommand,
  parseTapEvent,
  type TapCommand,
  type TapEvent,
} from '../../src/runtime/tap-protocol.ts';
import type { ByteTransport, Unsubscribe } from '../../src/protocol/transport.ts';

// ---- the transport ----

export class WsTapTransport implements ByteTransport {
  readonly events: TapEvent[] = [];
  private readonly dataListeners = new Set<(chunk: Uint8Array) => void>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private readonly eventListeners = new Set<(event: TapEvent) => void>();
  /** Settles with the close code once the socket is closed. */
  readonly closed: Promise<number>;

  private readonly reply: Promise<string>;

  private constructor(readonly socket: WebSocket) {
    // The listener is attached before anything is sent: the tap's first lines may arrive in the
    // same read as "started", and none of them may be missed.
    let resolveReply!: (text: string) => void;
    this.reply = new Promise((resolve) => (resolveReply = resolve));
    let replied = false;
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = data.toString();
      if (!replied) {
        replied = true;
        resolveReply(text);
        return;
      }
      // The bridge sends the lines of one event-loop turn together, '\n'-separated.
      for (const line of text.split('\n')) {
        const event = parseTapEvent(line);
        if (!event) continue;
        this.events.push(event);
        for (const listener of this.eventListeners) listener(event);
        if (event.ev === 's2c') for (const listener of this.dataListeners) listener(base64ToBytes(event.b64));
      }
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => {
        if (!replied) resolveReply(`(closed ${code} before any reply)`);
        for (const listener of this.closeListeners) listener(`socket closed (${code} ${reason.toString()})`);
        resolve(code);
      }),
    );
  }

  /** Open a socket, send the start message, and resolve once the bridge says "started". */
  static async start(url: string, origin: string, start: Record<string, unknown>, timeoutMs = 10_000): Promise<WsTapTransport> {
    const transport = new WsTapTransport(await openSocket(url, origin));
    transport.socket.send(JSON.stringify(start));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const text = await Promise.race([
      transport.reply,
      new Promise<string>((resolve) => (timer = setTimeout(() => resolve('(no reply in time)'), timeoutMs))),
    ]);
    clearTimeout(timer);
    const parsed = parseBridgeReply(text);
    if (parsed?.type !== 'started') {
      transport.socket.terminate();
      throw new Error(parsed?.type === 'refused' ? `refused: ${parsed.reason}` : `unexpected first message: ${text}`);
    }
    return transport;
  }

  /** The server's process id, from the tap's spawn event. */
  get serverPid(): number | undefined {
    const spawn = this.events.find((event) => event.ev === 'spawn');
    return spawn?.ev === 'spawn' ? spawn.pid : undefined;
  }

  write(bytes: Uint8Array): void {
    this.command({ cmd: 'write', b64: bytesToBase64(bytes) });
  }

  end(): void {
    this.command({ cmd: 'eof' });
  }

  kill(): void {
    this.command({ cmd: 'kill' });
  }

  command(command: TapCommand): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(encodeTapCommand(command));
  }

  onData(listener: (chunk: Uint8Array) => void): Unsubscribe {
    this.dataListeners.add(listener);
    return () => this.dataListeners.delete(listener);
  }

  onClose(listener: (reason: string) => void): Unsubscribe {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  onTapEvent(listener: (event: TapEvent) => void): Unsubscribe {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Wait for the first event matching `predicate` (already seen or still to come). */
  waitForEvent(predicate: (event: TapEvent) => boolean, timeoutMs = 5_000): Promise<TapEvent> {
    const seen = this.events.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error('timed out waiting for a tap event'));
      }, timeoutMs);
      const off = this.onTapEvent((event) => {
        if (!predicate(event)) return;
        clearTimeout(timer);
        off();
        resolve(event);
      });
    });
  }

  close(): void {
    this.socket.close(1000);
  }
}

// ---- sockets ----

export type UpgradeOutcome = { kind: 'open'; socket: WebSocket } | { kind: 'rejected'; status: number; body: string };

/** Try to open a bridge socket; a refused upgrade resolves with its HTTP status and body. */
export function tryUpgrade(url: string, origin?: string): Promise<UpgradeOutcome> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, origin === undefined ? {} : { origin });
    socket.once('open', () => resolve({ kind: 'open', socket }));
    socket.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ kind: 'rejected', status: res.statusCode ?? 0, body }));
    });
    socket.once('error', reject);
  });
}

export async function openSocket(url: string, origin: string): Promise<WebSocket> {
  const outcome = await tryUpgrade(url, origin);
  if (outcome.kind === 'rejected') throw new Error(`upgrade refused: ${outcome.status} ${outcome.body}`);
  return outcome.socket;
}

/** The next text message on a socket. */
export function nextText(socket: WebSocket, timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('message', onMessage);
      reject(new Error('timed out waiting for a message'));
    }, timeoutMs);
    const onMessage = (data: WebSocket.RawData) => {
      clearTimeout(timer);
      socket.off('message', onMessage);
      resolve(data.toString());
    };
    socket.on('message', onMessage);
  });
}

/** Every text message the socket receives from now on, in order (attach before sending). */
export function collectMessages(socket: WebSocket): string[] {
  const messages: string[] = [];
  socket.on('message', (data, isBinary) => {
    if (!isBinary) messages.push(data.toString());
  });
  return messages;
}

/** Resolves with the close code (and reason) once the socket closes. */
export function closeOf(socket: WebSocket): Promise<{ code: number; reason: string }> {
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve({ code: -1, reason: 'already closed' });
  return new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

// ---- a bridge for tests ----

/** Build tap.mjs and the servers into a private temp dir, so no other test's build can race ours. */
export async function buildProgramsForTest(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'mcp-bridge-programs-'));
  await buildNodePrograms(dir);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface TestBridge {
  bridge: Bridge;
  origin: string;
  /** ws://127.0.0.1:PORT/bridge?token=... */
  url: string;
  token: string;
  close(): Promise<void>;
}

/** The page's bridge host on a test bridge, connecting as a page of the bridge's own origin does (ws sends that Origin). */
export function pageHost(bridge: TestBridge): Host {
  const origin = bridge.origin;
  const WebSocketImpl = class extends WebSocket {
    constructor(url: string) {
      super(url, { origin });
    }
  } as unknown as typeof globalThis.WebSocket;
  return createBridgeHost({ WebSocketImpl, url: bridge.url.split('?')[0], token: bridge.token, pageOrigin: origin });
}

/** A bridge on its own HTTP server on a free loopback port, as start.ts wires it. */
export async function startTestBridge(
  options: Omit<BridgeOptions, 'allowedOrigins' | 'token' | 'learnerCode'> & { token?: string; learnerCode?: LearnerCodeOnBridge },
): Promise<TestBridge> {
  const token = options.token ?? 'test-token-0123456789abcdef';
  let origin = '';
  // On loopback, as start.ts runs it without --learner-code-in-node; learner tests pass a sandbox.
  const bridge = createBridge({ log: () => {}, learnerCode: { run: 'never', why: 'not-enabled' }, ...options, token, allowedOrigins: () => [origin] });
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket, head: Buffer) => {
    if (!bridge.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    bridge,
    origin,
    token,
    url: `ws://127.0.0.1:${port}/bridge?token=${encodeURIComponent(token)}`,
    close: async () => {
      await bridge.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let sandbox: Promise<LearnerSandbox> | null = null;

/**
 * The machine's learner sandbox (bwrap + prlimit). The tests need it: `npm test` installs it
 * (scripts/ensure-sandbox-tools.sh), and its absence is a failure, not a skip.
 */
export function testSandbox(): Promise<LearnerSandbox> {
  return (sandbox ??= detectLearnerSandbox().then((found) => {
    if (!found.ok) throw new Error(`no learner sandbox: ${found.reason}`);
    return found.sandbox;
  }));
}

/** learnerCode for a bridge that runs learner code in the machine's sandbox. */
export async function sandboxedLearnerCode(): Promise<LearnerCodeOnBridge> {
  return { run: 'sandboxed', sandbox: await testSandbox() };
}

// ---- processes ----

/**
 * Is a process with this id still running? Signal 0 checks without sending anything; a zombie
 * (exited, waiting for its parent or init to collect the status) answers too, so on Linux its
 * state is read as well: a zombie holds nothing and counts as gone.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    // no /proc (not Linux), or the process vanished between the two checks
    return existsSync('/proc') ? false : true;
  }
}

/** Direct children of this test process, from /proc (the bridge spawns servers as our children). */
export function childPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 is the parent pid; the command name (field 2) may hold spaces, so split after ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/** Poll until `condition` holds; rejects after `timeoutMs`. */
export async function waitUntil(condition: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
