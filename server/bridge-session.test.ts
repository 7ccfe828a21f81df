// One bridge session without a network: the line batching on its own, then a whole session on a
// fake socket (so the test decides how full the socket is) around a real echo server.

import { EventEmitter } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { encodeTapCommand, parseTapEvent, type TapEvent } from '../src/runtime/tap-protocol.ts';
import { buildProgramsForTest, isAlive, waitUntil } from '../tests/integration/ws-tap-transport.ts';
import { BridgeSession, type SessionContext } from './bridge-session.ts';

/** Just enough of a `ws` WebSocket for a session; the test sets bufferedAmount and acks sends. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: string[] = [];
  readonly sendCallbacks: Array<() => void> = [];
  readonly pauses: Array<'pause' | 'resume'> = [];
  closedWith: number | null = null;

  send(text: string, callback?: () => void): void {
    this.sent.push(text);
    if (callback) this.sendCallbacks.push(callback);
  }
  pause(): void {
    this.pauses.push('pause');
  }
  resume(): void {
    this.pauses.push('resume');
  }
  pings = 0;
  /** Answer pings at once, as a live browser does; the ping test turns this off to go half-open. */
  autoPong = true;
  ping(): void {
    this.pings++;
    if (this.autoPong) queueMicrotask(() => this.emit('pong'));
  }
  close(code: number): void {
    this.closedWith = code;
    this.readyState = 3;
    queueMicrotask(() => this.emit('close', code, Buffer.alloc(0)));
  }
  terminate(): void {
    this.close(1006);
  }
  /** The page sends a text message. */
  receive(text: string): void {
    this.emit('message', Buffer.from(text), false);
  }
  ackSends(): void {
    for (const callback of this.sendCallbacks.splice(0)) callback();
  }
  events(): TapEvent[] {
    return this.sent.slice(1).flatMap((text) => text.split('\n').flatMap((line) => parseTapEvent(line) ?? []));
  }
}

describe('BridgeSession on a socket that fills up', () => {
  let programs: { dir: string; remove(): Promise<void> };
  const sessions: Array<{ session: BridgeSession; socket: FakeSocket }> = [];
  beforeAll(async () => {
    programs = await buildProgramsForTest();
  });
  afterAll(async () => {
    await programs.remove();
  });
  afterEach(async () => {
    for (const { session } of sessions.splice(0)) {
      session.shutdown();
      await session.ended;
    }
  });

  async function startSession(limits: SessionContext['limits'] = {}): Promise<{ session: BridgeSession; socket: FakeSocket; serverPid: number }> {
    const socket = new FakeSocket();
    const context: SessionContext = {
      programsDir: programs.dir,
      policy: { learnerCode: 'not-enabled' },
      learnerSandbox: null,
      startTimeoutMs: 5_000,
      log: () => {},
      admit: () => null,
      processStarted: () => {},
      processEnded: () => {},
      limits,
    };
    const session = new BridgeSession(socket as unknown as WebSocket, context);
    sessions.push({ session, socket });
    socket.receive(JSON.stringify({ type: 'start', program: 'echo-server', framing: 'ndjson', faults: [] }));
    expect(socket.sent[0]).toBe('{"type":"started"}');
    await waitUntil(() => socket.events().some((event) => event.ev === 'stderr'), 15_000, 'the server start log');
    return { session, socket, serverPid: session.serverPid as number };
  }

  it('stops reading the server and the page while the socket is over its high mark', async () => {
    const { socket } = await startSession();
    socket.bufferedAmount = 5 * 1024 * 1024;
    socket.receive(encodeTapCommand({ cmd: 'write', b64: Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n').toString('base64') }));
    await waitUntil(() => socket.pauses.length > 0, 5_000, 'the session to pause');
    expect(socket.pauses).toEqual(['pause']);
    // The page drained its socket: everything flows again.
    socket.bufferedAmount = 0;
    socket.ackSends();
    expect(socket.pauses).toEqual(['pause', 'resume']);
    await waitUntil(() => socket.events().some((event) => event.ev === 's2c'), 5_000, 'the ping reply');
  });

  it('stops reading the page while the server is not reading its stdin, and resumes once it does', async () => {
    const { socket, serverPid } = await startSession();
    process.kill(serverPid, 'SIGSTOP');
    try {
      const chunk = Buffer.alloc(1024 * 1024, 0x20).toString('base64');
      for (let i = 0; i < 6; i++) socket.receive(encodeTapCommand({ cmd: 'write', b64: chunk }));
      expect(socket.pauses).toEqual(['pause']);
    } finally {
      process.kill(serverPid, 'SIGCONT');
    }
    await waitUntil(() => socket.pauses.length === 2, 5_000, 'the session to resume');
    expect(socket.pauses).toEqual(['pause', 'resume']);
    const c2sBytes = () => socket.events().reduce((sum, event) => sum + (event.ev === 'c2s' ? Buffer.from(event.b64, 'base64').length : 0), 0);
    await waitUntil(() => c2sBytes() === 6 * 1024 * 1024, 5_000, 'every c2s event');
  });

  it('ends the connection and the process group when the server stops reading its stdin for longer than the paused limit', async () => {
    const { socket, session, serverPid } = await startSession({ pausedLimitMs: 100 });
    process.kill(serverPid, 'SIGSTOP');
    const chunk = Buffer.alloc(1024 * 1024, 0x20).toString('base64');
    for (let i = 0; i < 6; i++) socket.receive(encodeTapCommand({ cmd: 'write', b64: chunk }));
    expect(socket.pauses).toEqual(['pause']);
    // No resume ever comes: the limit ends it, SIGTERM reaches the stopped server (SIGCONT follows).
    await session.ended;
    expect(socket.closedWith).toBe(1006);
    expect(isAlive(serverPid)).toBe(false);
  });

  it('ends the connection and the process group when the page stops reading for longer than the paused limit', async () => {
    const { socket, session, serverPid } = await startSession({ pausedLimitMs: 100 });
    socket.bufferedAmount = 5 * 1024 * 1024;
    socket.receive(encodeTapCommand({ cmd: 'write', b64: Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n').toString('base64') }));
    await waitUntil(() => socket.pauses.length > 0, 5_000, 'the session to pause');
    // The page never drains its socket.
    await session.ended;
    expect(socket.closedWith).toBe(1006);
    expect(isAlive(serverPid)).toBe(false);
  });

  it('pings a running socket and ends it, with its server, when a ping goes unanswered', async () => {
    // Pings are answered while the server starts (however long that takes on a loaded machine)...
    const { socket, session, serverPid } = await startSession({ pingIntervalMs: 50 });
    await waitUntil(() => socket.pings >= 2, 5_000, 'two answered pings');
    expect(session.serverPid).toBe(serverPid);
    // ...then the socket goes half-open: the next ping is never answered, and the interval after it
    // ends the connection.
    socket.autoPong = false;
    const answered = socket.pings;
    await session.ended;
    expect(socket.pings).toBe(answered + 1);
    expect(socket.closedWith).toBe(1006);
    expect(isAlive(serverPid)).toBe(false);
  });

  it('closes the socket with 1000 after the exit line when the server ends', async () => {
    const { socket, session, serverPid } = await startSession();
    socket.receive(encodeTapCommand({ cmd: 'eof' }));
    await session.ended;
    expect(socket.closedWith).toBe(1000);
    expect(socket.events().at(-1)).toMatchObject({ ev: 'exit', code: 0 });
    expect(isAlive(serverPid)).toBe(false);
  });
});
