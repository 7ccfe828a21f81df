import { describe, expect, it } from 'vitest';
import { createEchoWorkerCore } from '../../runtime/echo-worker-core.ts';
import type { Host, HostAvailability, ProgramSpec, Wire } from '../../runtime/host.ts';
import { OFFLINE_WEBCONTAINER_REASON, skippedWebContainer, WEBCONTAINER_NOT_CHOSEN_REASON, withConnectivity } from '../../runtime/host-selection.ts';
import { bytesToBase64, type TapEvent } from '../../runtime/tap-protocol.ts';
import { createWorkerHost, type WorkerLike } from '../../runtime/worker-host.ts';
import { HANDSHAKE_ECHO_TEXT } from './handshake.ts';
import { LiveSessionStore, type LiveSessionState } from './live-session-store.ts';
import type { LogEntry } from './message-log.ts';

/** The real echo server core, wired like a Web Worker but in memory: the whole stack, no browser. */
function inMemoryWorker(): WorkerLike {
  const listeners: ((data: unknown) => void)[] = [];
  const core = createEchoWorkerCore({ post: (event) => queueMicrotask(() => listeners.forEach((listener) => listener(event))) });
  return {
    postMessage: (message) => queueMicrotask(() => core.handle(message)),
    onMessage: (listener) => void listeners.push(listener),
    onError: () => {},
    terminate: () => {},
  };
}

/** A host whose wire the test drives by hand. */
function scriptedHost(): Host & { wires: ScriptedWire[]; specs: ProgramSpec[]; failNext: string | null } {
  const host = {
    kind: 'bridge' as const,
    wires: [] as ScriptedWire[],
    specs: [] as ProgramSpec[],
    failNext: null as string | null,
    async start(spec: ProgramSpec): Promise<Wire> {
      host.specs.push(spec);
      if (host.failNext !== null) {
        const reason = host.failNext;
        host.failNext = null;
        throw new Error(reason);
      }
      const wire = new ScriptedWire();
      host.wires.push(wire);
      return wire;
    },
  };
  return host;
}

class ScriptedWire implements Wire {
  readonly host = 'bridge' as const;
  killed = false;
  private events: ((event: TapEvent) => void)[] = [];
  private closes: ((reason: string) => void)[] = [];
  write(): void {}
  end(): void {}
  onData() {
    return () => {};
  }
  onTapEvent(listener: (event: TapEvent) => void) {
    this.events.push(listener);
    return () => {};
  }
  onClose(listener: (reason: string) => void) {
    this.closes.push(listener);
    return () => {};
  }
  kill(): void {
    this.killed = true;
    this.emit({ tap: 1, ev: 'exit', t: 9, code: null, signal: 'SIGTERM' });
    this.close('server killed');
  }
  emit(event: TapEvent): void {
    for (const listener of this.events) listener(event);
  }
  close(reason: string): void {
    for (const listener of this.closes) listener(reason);
  }
}

const AVAILABLE: HostAvailability[] = [{ kind: 'bridge', status: 'available' }];

async function sessionWith(host: Host, availability = AVAILABLE, options: { logCap?: number } = {}) {
  const session = new LiveSessionStore({ selectHost: async () => ({ host, availability }), ...options });
  await session.probeHosts();
  return session;
}

function bytesEvent(ev: 'c2s' | 's2c' | 'stderr', text: string, t = 1): TapEvent {
  return { tap: 1, ev, t, b64: bytesToBase64(new TextEncoder().encode(text)) };
}

function frames(state: LiveSessionState) {
  return state.log.entries.flatMap((entry) => (entry.type === 'bytes' ? entry.frames.map((frame) => ({ direction: entry.direction, ...frame })) : []));
}

describe('LiveSessionStore: hosts', () => {
  it('starts probing, then reports the chosen host and every availability', async () => {
    const host = scriptedHost();
    const availability: HostAvailability[] = [
      { kind: 'webcontainer', status: 'unavailable', reason: 'did not boot' },
      { kind: 'bridge', status: 'available' },
    ];
    const session = new LiveSessionStore({ selectHost: async () => ({ host, availability }) });
    expect(session.getSnapshot().host.selection).toEqual({ status: 'probing' });
    await session.probeHosts();
    expect(session.getSnapshot().host.selection).toEqual({ status: 'chosen', kind: 'bridge', availability });
  });

  it('reports "none" when no host works, and a retry can find one later', async () => {
    const host = scriptedHost();
    let attempt = 0;
    const session = new LiveSessionStore({
      selectHost: async () =>
        attempt++ === 0 ? { host: null, availability: [{ kind: 'bridge', status: 'unavailable', reason: 'gone' }] } : { host, availability: AVAILABLE },
    });
    await session.probeHosts();
    expect(session.getSnapshot().host.selection.status).toBe('none');
    expect(await session.startServer()).toBeNull();
    await session.probeHosts();
    expect(session.getSnapshot().host.selection.status).toBe('chosen');
  });

  it('a retry stops the running server and starts the new host from a clean status', async () => {
    const host = scriptedHost();
    const session = await sessionWith(host);
    await session.startServer();
    host.wires[0]!.close('connection to the bridge lost');
    expect(session.getSnapshot().server.status).toBe('failed');
    await session.probeHosts();
    expect(session.getSnapshot().server).toEqual({ status: 'stopped' });
    await session.startServer();
    await session.probeHosts();
    expect(host.wires[1]!.killed).toBe(true);
    expect(session.getSnapshot().server).toEqual({ status: 'stopped' });
  });

  it('a WebContainer row skipped unprobed follows the browser going offline and back; a probed row and the choice stay', async () => {
    const host = scriptedHost();
    const probed: HostAvailability = { kind: 'webcontainer', status: 'unavailable', reason: 'did not boot', why: { code: 'boot-timeout', seconds: 6 } };
    const session = new LiveSessionStore({ selectHost: async () => ({ host, availability: [skippedWebContainer(false), { kind: 'bridge', status: 'available' }] }) });
    session.connectivityChanged(true); // while probing: nothing to change yet
    expect(session.getSnapshot().host.selection).toEqual({ status: 'probing' });
    await session.probeHosts();
    session.connectivityChanged(true);
    expect(session.getSnapshot().host.selection).toEqual({ status: 'chosen', kind: 'bridge', availability: [skippedWebContainer(true), { kind: 'bridge', status: 'available' }] });
    const webContainerRow = () => (session.getSnapshot().host.selection as { availability: readonly HostAvailability[] }).availability[0];
    expect(webContainerRow()).toMatchObject({ why: { code: 'offline' }, reason: OFFLINE_WEBCONTAINER_REASON });
    session.connectivityChanged(false);
    expect(session.getSnapshot().host.selection).toMatchObject({ status: 'chosen', kind: 'bridge' });
    expect(webContainerRow()).toMatchObject({ why: { code: 'not-chosen' }, reason: WEBCONTAINER_NOT_CHOSEN_REASON });
    expect(withConnectivity([probed], true)).toEqual([probed]);
  });

  it('keeps the forced and the invalid ?host= values for the panel', () => {
    const session = new LiveSessionStore({ selectHost: async () => ({ host: null, availability: [] }), forced: null, invalidForced: 'nope' });
    expect(session.getSnapshot().host).toMatchObject({ forced: null, invalidForced: 'nope' });
  });
});

describe('LiveSessionStore: the server', () => {
  it('passes framing and faults to the host, and locks them while running', async () => {
    const host = scriptedHost();
    const session = await sessionWith(host);
    session.setFraming('ndjson');
    session.setFault('stdout-log', true);
    session.setFault('split-writes', true);
    session.setFault('split-writes', false);
    await session.startServer();
    expect(host.specs).toEqual([{ program: 'echo-server', framing: 'ndjson', faults: ['stdout-log'] }]);
    session.setFraming('content-length');
    session.setFault('no-gate', true);
    expect(session.getSnapshot()).toMatchObject({ framing: 'ndjson', faults: ['stdout-log'] });
  });

  it('goes running on spawn, and reports a crash with its exit code', async () => {
    const host = scriptedHost();
    const session = await sessionWith(host);
    await session.startServer();
    const wire = host.wires[0]!;
    wire.emit({ tap: 1, ev: 'spawn', t: 0, pid: 42, argv: ['node', 'echo-server.mjs'] });
    expect(session.getSnapshot().server).toEqual({ status: 'running', host: 'bridge', pid: 42 });
    wire.emit({ tap: 1, ev: 'exit', t: 5, code: 3, signal: null });
    wire.close('exit code 3');
    expect(session.getSnapshot().server).toEqual({ status: 'exited', code: 3, signal: null });
    expect(session.getSnapshot().log.entries.map((entry) => entry.type)).toEqual(['spawn', 'exit']);
    // and it can start again
    await session.startServer();
    expect(host.wires).toHaveLength(2);
    expect(session.getSnapshot().server.status).toBe('running');
  });

  it('says the connection was lost when the wire closes without an exit', async () => {
    const host = scriptedHost();
    const session = await sessionWith(host);
    await session.startServer();
    host.wires[0]!.close('connection to the bridge lost');
    expect(session.getSnapshot().server).toEqual({ status: 'failed', reason: 'connection to the bridge lost' });
    expect(session.getSnapshot().log.entries.at(-1)).toMatchObject({ type: 'closed', reason: 'connection to the bridge lost' });
  });

  it('reports a host that cannot start the server, and starting again works', async () => {
    const host = scriptedHost();
    host.failNext = 'WebContainer did not boot';
    const session = await sessionWith(host);
    expect(await session.startServer()).toBeNull();
    expect(session.getSnapshot().server).toEqual({ status: 'failed', reason: 'WebContainer did not boot' });
    expect(await session.startServer()).not.toBeNull();
    expect(session.getSnapshot().server.status).toBe('running');
  });

  it('a stop requested by the learner ends as "stopped", not as a crash', async () => {
    const host = scriptedHost();
    const session = await sessionWith(host);
    await session.startServer();
    await session.stopServer();
    expect(host.wires[0]!.killed).toBe(true);
    expect(session.getSnapshot().server).toEqual({ status: 'stopped' });
  });

  it('passes a non-default era to the host, and only then', async () => {
    const host = scriptedHost();
    const session = await sessionWith(host);
    session.setEra('legacy');
    await session.startServer();
    session.setEra('modern');
    expect(session.getSnapshot().era).toBe('legacy');
    await session.stopServer();
    session.setEra('dual');
    await session.startServer();
    expect(host.specs).toEqual([
      { program: 'echo-server', framing: 'content-length', faults: [], era: 'legacy' },
      { program: 'echo-server', framing: 'content-length', faults: [] },
    ]);
  });

  it("numbers a new run's log entries after the old run's, so a row's seq names one entry", async () => {
    const host = scriptedHost();
    const session = await sessionWith(host);
    await session.startServer();
    host.wires[0]!.emit(bytesEvent('stderr', 'first run\n'));
    await session.stopServer();
    await session.startServer();
    host.wires[1]!.emit(bytesEvent('stderr', 'second run\n'));
    const seqs = session.getSnapshot().log.entries.map((entry) => entry.seq);
    expect(seqs.length).toBeGreaterThan(2);
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('ignores events from a previous run', async () => {
    const host = scriptedHost();
    const session = await sessionWith(host);
    await session.startServer();
    await session.stopServer();
    await session.startServer();
    host.wires[0]!.emit(bytesEvent('stderr', 'late line from the old server\n'));
    expect(session.getSnapshot().log.entries.some((entry) => entry.type === 'stderr')).toBe(false);
  });
});

describe('LiveSessionStore: the message log', () => {
  it('parses each direction with its own reader, across chunk boundaries, and pairs responses by id', async () => {
    const host = scriptedHost();
    const session = await sessionWith(host);
    await session.startServer();
    const wire = host.wires[0]!;
    const request = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}';
    const response = '{"jsonrpc":"2.0","id":0,"result":{"text":"你好"}}';
    const responseFrame = `Content-Length: ${new TextEncoder().encode(response).length}\r\n\r\n${response}`;
    wire.emit(bytesEvent('c2s', `Content-Length: ${request.length}\r\n\r\n${request}`));
    // The response arrives in two chunks, the cut inside the header.
    wire.emit(bytesEvent('s2c', responseFrame.slice(0, 10)));
    wire.emit(bytesEvent('s2c', responseFrame.slice(10)));
    wire.emit(bytesEvent('stderr', '[echo-server] hello\n'));

    const entries = session.getSnapshot().log.entries;
    expect(entries.map((entry) => entry.type)).toEqual(['bytes', 'bytes', 'bytes', 'stderr']);
    const [, firstHalf, secondHalf] = entries as [LogEntry, Extract<LogEntry, { type: 'bytes' }>, Extract<LogEntry, { type: 'bytes' }>];
    expect(firstHalf.frames).toEqual([]);
    expect(firstHalf.bufferedBytes).toBe(10);
    expect(secondHalf.frames).toMatchObject([{ type: 'message', kind: 'response', method: 'initialize', id: 0, startedEarlier: true }]);
    expect(frames(session.getSnapshot())).toMatchObject([
      { direction: 'c2s', kind: 'request', method: 'initialize', id: 0 },
      { direction: 's2c', kind: 'response', method: 'initialize', id: 0 },
    ]);
  });

  it('shows garbage on stdout as an unreadable frame with the reader detail', async () => {
    const host = scriptedHost();
    const session = await sessionWith(host);
    session.setFraming('ndjson');
    await session.startServer();
    host.wires[0]!.emit(bytesEvent('s2c', '[echo-server] answering initialize\n{"jsonrpc":"2.0","id":0,"result":{}}\n'));
    const found = frames(session.getSnapshot());
    expect(found[0]).toMatchObject({ type: 'error', kind: 'bad-json' });
    expect((found[0] as { detail: string }).detail.length).toBeGreaterThan(0);
    expect(found[1]).toMatchObject({ type: 'message', kind: 'response', id: 0 });
  });

  it('caps the log and counts what it dropped', async () => {
    const host = scriptedHost();
    const session = await sessionWith(host, AVAILABLE, { logCap: 5 });
    await session.startServer();
    for (let i = 0; i < 12; i++) host.wires[0]!.emit(bytesEvent('stderr', `line ${i}\n`, i));
    const { log } = session.getSnapshot();
    expect(log.entries).toHaveLength(5);
    expect(log.dropped).toBe(7);
    expect(log.entries[0]).toMatchObject({ type: 'stderr', text: 'line 7\n', seq: 7 });
    session.clearLog();
    expect(session.getSnapshot().log).toEqual({ entries: [], dropped: 0 });
  });
});

describe('LiveSessionStore: the handshake over the real echo server core', () => {
  for (const framing of ['content-length', 'ndjson'] as const) {
    it(`initialize → initialized → tools/list → tools/call echo over ${framing}`, async () => {
      const host = createWorkerHost({ createWorker: inMemoryWorker });
      const session = await sessionWith(host, [{ kind: 'worker', status: 'available' }]);
      session.setFraming(framing);
      const clientStates: (string | null)[] = [];
      session.subscribe(() => {
        const state = session.getSnapshot().handshake.clientState;
        if (clientStates.at(-1) !== state) clientStates.push(state);
      });
      await session.runHandshake();

      const { handshake, server } = session.getSnapshot();
      expect(handshake.error).toBeNull();
      expect(handshake.step).toBe('done');
      expect(clientStates).toEqual([null, 'new', 'initialized', 'ready']);
      expect(handshake.tools).toContain('echo');
      expect(handshake.result?.content).toEqual([{ type: 'text', text: HANDSHAKE_ECHO_TEXT }]);
      expect(server).toMatchObject({ status: 'running', host: 'worker' });

      const seen = frames(session.getSnapshot()).map((frame) => (frame.type === 'message' ? `${frame.direction} ${frame.kind} ${frame.method} ${frame.id}` : 'error'));
      expect(seen).toEqual([
        'c2s request initialize 0',
        's2c response initialize 0',
        'c2s notification notifications/initialized null',
        'c2s request tools/list 1',
        's2c response tools/list 1',
        'c2s request tools/call 2',
        's2c response tools/call 2',
      ]);
    });
  }

  it('a second run restarts the server, because a handshake happens once per session', async () => {
    const host = createWorkerHost({ createWorker: inMemoryWorker });
    const session = await sessionWith(host, [{ kind: 'worker', status: 'available' }]);
    await session.runHandshake();
    await session.runHandshake();
    expect(session.getSnapshot().handshake.step).toBe('done');
    expect(session.getSnapshot().log.entries.filter((entry) => entry.type === 'spawn')).toHaveLength(2);
  });

  it('reports a failed handshake when the server never starts', async () => {
    const host = scriptedHost();
    host.failNext = 'no bridge';
    const session = await sessionWith(host);
    await session.runHandshake();
    expect(session.getSnapshot().handshake).toMatchObject({ step: 'failed', error: 'no bridge' });
  });
});
