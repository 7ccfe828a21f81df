import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket as WsWebSocket, WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { buildNodePrograms } from '../../scripts/build-node-programs.ts';
import { createBridge, type Bridge, type LearnerCodeOnBridge } from '../../server/bridge.ts';
import { testSandbox } from '../../tests/integration/ws-tap-transport.ts';
import { McpClient } from '../protocol/client.ts';
import { contentLengthFraming } from '../protocol/framing/index.ts';
import { BRIDGE_LOST_REASON, NO_BRIDGE_TOKEN_REASON, createBridgeHost } from './bridge-host.ts';
import { SHARED_BRIDGE_LEARNER_REFUSAL } from './bridge-messages.ts';
import type { ProgramSpec, Wire } from './host.ts';
import { base64ToBytes, bytesToBase64, encodeTapEvent, parseTapCommand, type TapEvent } from './tap-protocol.ts';

const TOKEN = 'test-token-123';
const WebSocketImpl = WsWebSocket as unknown as typeof WebSocket;
const SPEC: ProgramSpec = { program: 'echo-server', framing: 'ndjson', faults: ['split-writes'] };

/** A scripted bridge: checks the token, records what the page sends, lets each test answer. */
class ScriptedBridge {
  readonly http: Server = createServer();
  readonly wss = new WebSocketServer({ noServer: true });
  readonly received: string[][] = [];
  readonly sockets: ServerSocket[] = [];
  onStart: (socket: ServerSocket, message: unknown) => void = (socket) => socket.send('{"type":"started"}');

  constructor() {
    this.http.on('upgrade', (req, socket, head) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname !== '/bridge' || url.searchParams.get('token') !== TOKEN) {
        socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
    });
  }

  private accept(ws: ServerSocket): void {
    const messages: string[] = [];
    this.received.push(messages);
    this.sockets.push(ws);
    ws.on('message', (data) => {
      const text = data.toString();
      messages.push(text);
      if (messages.length === 1) this.onStart(ws, JSON.parse(text));
    });
  }

  async listen(): Promise<string> {
    this.http.listen(0, '127.0.0.1');
    await once(this.http, 'listening');
    return `ws://127.0.0.1:${(this.http.address() as AddressInfo).port}/bridge`;
  }

  async close(): Promise<void> {
    for (const socket of this.wss.clients) socket.terminate();
    await new Promise<void>((done) => this.wss.close(() => done()));
    this.http.closeAllConnections();
    await new Promise<void>((done) => this.http.close(() => done()));
  }
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function scriptedBridge(): Promise<{ bridge: ScriptedBridge; url: string }> {
  const bridge = new ScriptedBridge();
  const url = await bridge.listen();
  cleanups.push(() => bridge.close());
  return { bridge, url };
}

function waitFor(check: () => boolean, what: string, ms = 3000): Promise<void> {
  return new Promise((resolveWait, reject) => {
    const started = Date.now();
    const tick = (): void => {
      if (check()) resolveWait();
      else if (Date.now() - started > ms) reject(new Error(`timed out waiting for ${what}`));
      else setTimeout(tick, 5);
    };
    tick();
  });
}

const event = (body: Record<string, unknown>): string => encodeTapEvent({ tap: 1, t: 1, ...body } as TapEvent);

describe('createBridgeHost.probe', () => {
  it('is available when the bridge accepts the token, and closes the probe socket', async () => {
    const { bridge, url } = await scriptedBridge();
    const host = createBridgeHost({ WebSocketImpl, url, token: TOKEN });
    expect(await host.probe()).toEqual({ kind: 'bridge', status: 'available' });
    await waitFor(() => bridge.sockets.length === 1 && bridge.sockets[0]?.readyState === WsWebSocket.CLOSED, 'the probe socket to close');
    expect(bridge.received).toEqual([[]]); // it never asked to start anything
  });

  it('is unavailable, with the refusal and without the token, when the bridge refuses', async () => {
    const { url } = await scriptedBridge();
    const availability = await createBridgeHost({ WebSocketImpl, url, token: 'wrong' }).probe();
    expect(availability.status).toBe('unavailable');
    if (availability.status !== 'unavailable') return;
    expect(availability.reason).toContain(`could not connect to the bridge at ${url}`);
    expect(availability.reason).toContain('403');
    expect(availability.reason).not.toContain('wrong');
  });

  it('is unavailable when nothing listens', async () => {
    const { bridge, url } = await scriptedBridge();
    await bridge.close();
    cleanups.length = 0;
    const availability = await createBridgeHost({ WebSocketImpl, url, token: TOKEN }).probe();
    expect(availability).toMatchObject({ status: 'unavailable', reason: expect.stringContaining('could not connect to the bridge') });
  });

  it('gives up after connectTimeoutMs when the other end never answers the upgrade', async () => {
    const accepted: Socket[] = [];
    const silent: TcpServer = createTcpServer((socket) => accepted.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    cleanups.push(
      () =>
        new Promise<void>((done) => {
          for (const socket of accepted) socket.destroy();
          silent.close(() => done());
        }),
    );
    const url = `ws://127.0.0.1:${(silent.address() as AddressInfo).port}/bridge`;
    // The connect timer runs on a fake clock (the socket is real): not a moment before 200 ms, then at once.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    cleanups.push(() => void vi.useRealTimers());
    let availability: unknown;
    const probing = createBridgeHost({ WebSocketImpl, url, token: TOKEN, connectTimeoutMs: 200 })
      .probe()
      .then((result) => (availability = result));
    await vi.advanceTimersByTimeAsync(199);
    expect(availability).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await probing;
    expect(availability).toEqual({ kind: 'bridge', status: 'unavailable', reason: `no answer from the bridge at ${url} within 200 ms`, why: { code: 'bridge-silent', url, ms: 200 } });
  });

  it('says the page has no bridge when there is no token', async () => {
    const availability = await createBridgeHost({ WebSocketImpl, url: 'ws://127.0.0.1:1/bridge' }).probe();
    expect(availability).toEqual({ kind: 'bridge', status: 'unavailable', reason: NO_BRIDGE_TOKEN_REASON, why: { code: 'no-bridge-token' } });
  });
});

describe('createBridgeHost.start', () => {
  it('sends the start message, then relays tap lines both ways', async () => {
    const { bridge, url } = await scriptedBridge();
    let serverSocket: ServerSocket | undefined;
    bridge.onStart = (socket) => {
      serverSocket = socket;
      socket.send('{"type":"started"}');
      socket.send(event({ ev: 'spawn', pid: 7, argv: ['node', 'echo-server.mjs'] }));
    };
    const wire = await createBridgeHost({ WebSocketImpl, url, token: TOKEN }).start(SPEC);
    expect(wire.host).toBe('bridge');
    expect(JSON.parse(bridge.received[0]?.[0] ?? '')).toEqual({ type: 'start', program: 'echo-server', framing: 'ndjson', faults: ['split-writes'] });

    const events: TapEvent[] = [];
    const chunks: Uint8Array[] = [];
    wire.onTapEvent((tapEvent) => events.push(tapEvent));
    wire.onData((chunk) => chunks.push(chunk));
    const payload = new TextEncoder().encode('{"jsonrpc":"2.0","id":0,"result":{}}\n');
    serverSocket?.send(event({ ev: 's2c', b64: bytesToBase64(payload.subarray(0, 5)) }));
    serverSocket?.send(event({ ev: 's2c', b64: bytesToBase64(payload.subarray(5)) }));
    await waitFor(() => chunks.length === 2, 'two s2c chunks');
    expect(events.map((tapEvent) => tapEvent.ev)).toEqual(['spawn', 's2c', 's2c']);
    expect(chunks).toEqual([payload.subarray(0, 5), payload.subarray(5)]);

    wire.write(new TextEncoder().encode('hi'));
    wire.end();
    wire.kill();
    await waitFor(() => (bridge.received[0]?.length ?? 0) === 4, 'three commands');
    expect(bridge.received[0]?.slice(1).map(parseTapCommand)).toEqual([{ cmd: 'write', b64: 'aGk=' }, { cmd: 'eof' }, { cmd: 'kill' }]);
    const reason = new Promise<string>((done) => wire.onClose(done));
    serverSocket?.send(event({ ev: 'exit', code: null, signal: 'SIGTERM' }));
    expect(await reason).toBe('server was stopped by SIGTERM');
  });

  it('takes several tap lines in one message, \\n-separated, in order', async () => {
    const { bridge, url } = await scriptedBridge();
    const payload = new TextEncoder().encode('{"jsonrpc":"2.0","id":0,"result":{}}\n');
    bridge.onStart = (socket) => {
      socket.send('{"type":"started"}');
      // What the bridge sends when the lines of one event-loop turn travel together.
      socket.send(
        [
          event({ ev: 'spawn', pid: 7, argv: ['node', 'echo-server.mjs'] }),
          event({ ev: 'stderr', b64: bytesToBase64(new TextEncoder().encode('[echo-server] ready\n')) }),
          event({ ev: 's2c', b64: bytesToBase64(payload.subarray(0, 5)) }),
        ].join('\n'),
      );
      socket.send(event({ ev: 's2c', b64: bytesToBase64(payload.subarray(5)) }));
    };
    const wire = await createBridgeHost({ WebSocketImpl, url, token: TOKEN }).start(SPEC);
    const events: TapEvent[] = [];
    const chunks: Uint8Array[] = [];
    wire.onTapEvent((tapEvent) => events.push(tapEvent));
    wire.onData((chunk) => chunks.push(chunk));
    await waitFor(() => chunks.length === 2, 'two s2c chunks');
    expect(events.map((tapEvent) => tapEvent.ev)).toEqual(['spawn', 'stderr', 's2c', 's2c']);
    expect(concat(chunks)).toEqual(payload);
  });

  it('rejects with the reason the bridge gives when it refuses', async () => {
    const { bridge, url } = await scriptedBridge();
    bridge.onStart = (socket) => {
      socket.send(JSON.stringify({ type: 'refused', reason: 'sdk-echo-server speaks ndjson only' }));
      socket.close(1008, 'refused');
    };
    await expect(createBridgeHost({ WebSocketImpl, url, token: TOKEN }).start(SPEC)).rejects.toThrow(/^sdk-echo-server speaks ndjson only$/);
  });

  it('rejects when the bridge hangs up before answering', async () => {
    const { bridge, url } = await scriptedBridge();
    bridge.onStart = (socket) => socket.close(1011, 'oops');
    await expect(createBridgeHost({ WebSocketImpl, url, token: TOKEN }).start(SPEC)).rejects.toThrow(
      `${BRIDGE_LOST_REASON} before echo-server started (code 1011: oops)`,
    );
  });

  it('rejects when the bridge never answers the start message', async () => {
    const { bridge, url } = await scriptedBridge();
    bridge.onStart = () => {};
    await expect(createBridgeHost({ WebSocketImpl, url, token: TOKEN, startTimeoutMs: 100 }).start(SPEC)).rejects.toThrow(
      'the bridge did not start echo-server within 100 ms',
    );
  });

  it('closes the wire with "connection to the bridge lost" when the socket dies mid-session', async () => {
    const { bridge, url } = await scriptedBridge();
    const wire = await createBridgeHost({ WebSocketImpl, url, token: TOKEN }).start(SPEC);
    const reason = new Promise<string>((done) => wire.onClose(done));
    bridge.sockets[0]?.terminate();
    expect(await reason).toMatch(/^connection to the bridge lost \(code 1006\)$/);
  });

  it('closes its socket after the exit event', async () => {
    const { bridge, url } = await scriptedBridge();
    const wire = await createBridgeHost({ WebSocketImpl, url, token: TOKEN }).start(SPEC);
    const reason = new Promise<string>((done) => wire.onClose(done));
    bridge.sockets[0]?.send(event({ ev: 'exit', code: 0, signal: null }));
    expect(await reason).toBe('server exited with code 0');
    await waitFor(() => bridge.sockets[0]?.readyState === WsWebSocket.CLOSED, 'the socket to close');
  });
});

// The same host against the project's real bridge (with the tap in-process) and echo server: one full MCP conversation.
describe('createBridgeHost with the real bridge', () => {
  const programsDir = resolve(import.meta.dirname, '../../public/generated');

  beforeAll(async () => {
    if (!existsSync(resolve(programsDir, 'learner-server.mjs'))) await buildNodePrograms();
  }, 60_000);

  async function realBridge(runsLearnerCode = true): Promise<{ url: string; bridge: Bridge; origin: string }> {
    const learnerCode: LearnerCodeOnBridge = runsLearnerCode ? { run: 'sandboxed', sandbox: await testSandbox() } : { run: 'never', why: 'shared-bridge' };
    const http = createServer();
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const bridge = createBridge({ token: TOKEN, allowedOrigins: [origin], programsDir, learnerCode, log: () => {} });
    http.on('upgrade', (req, socket, head) => {
      if (!bridge.handleUpgrade(req, socket, head)) socket.destroy();
    });
    cleanups.push(async () => {
      await bridge.closeAll();
      http.closeAllConnections();
      await new Promise<void>((done) => http.close(() => done()));
    });
    return { url: `${origin.replace('http', 'ws')}/bridge`, bridge, origin };
  }

  it('runs a handshake and an echo of non-ASCII text, with the s2c bytes intact', async () => {
    const { url, bridge, origin } = await realBridge();
    // A browser sends its Origin by itself; `ws` needs telling.
    class BrowserLikeWebSocket extends WsWebSocket {
      constructor(address: string) {
        super(address, { origin });
      }
    }
    const host = createBridgeHost({ WebSocketImpl: BrowserLikeWebSocket as unknown as typeof WebSocket, url, token: TOKEN });
    expect(await host.probe()).toEqual({ kind: 'bridge', status: 'available' });

    const wire: Wire = await host.start({ program: 'echo-server', framing: 'content-length', faults: [] });
    const events: TapEvent[] = [];
    wire.onTapEvent((tapEvent) => events.push(tapEvent));
    const client = new McpClient(wire, { framing: 'content-length' });
    const received: unknown[] = [];
    client.on((clientEvent) => {
      if (clientEvent.type === 'received') received.push(clientEvent.message);
    });
    await client.connect();
    const text = '你好 👋 ünïcödé';
    const result = await client.callTool('echo', { text });
    expect(result.content).toEqual([{ type: 'text', text }]);

    const closed = new Promise<string>((done) => wire.onClose(done));
    wire.end();
    expect(await closed).toBe('server exited with code 0');
    expect(events[0]).toMatchObject({ ev: 'spawn' });
    expect(events.at(-1)).toMatchObject({ ev: 'exit', code: 0 });
    // The bytes the server wrote, reassembled, are exactly the frames of what the client read.
    const s2c = concat(events.flatMap((tapEvent) => (tapEvent.ev === 's2c' ? [base64ToBytes(tapEvent.b64)] : [])));
    expect(received).toHaveLength(2);
    expect(s2c).toEqual(concat(received.map((message) => contentLengthFraming.encode(message))));
    // The exit event is the server's last word; the bridge lets go of it right after.
    await waitFor(() => bridge.activeProcesses === 0, 'the bridge to release the server');
  });

  function browserLikeHost(url: string, origin: string) {
    class BrowserLikeWebSocket extends WsWebSocket {
      constructor(address: string) {
        super(address, { origin });
      }
    }
    return createBridgeHost({ WebSocketImpl: BrowserLikeWebSocket as unknown as typeof WebSocket, url, token: TOKEN });
  }

  const learnerSpec = () => ({
    program: 'learner-server' as const,
    framing: 'ndjson' as const,
    faults: [],
    learnerServer: { code: readFileSync(resolve(import.meta.dirname, '../protocol/server.ts'), 'utf8'), file: 'server.ts', moduleId: '@protocol/server' },
  });

  it("sends the learner's source with a learner-server start, and the bridge runs it", async () => {
    const { url, origin } = await realBridge(true);
    const wire = await browserLikeHost(url, origin).start(learnerSpec());
    const client = new McpClient(wire, { framing: 'ndjson' });
    await client.connect();
    expect((await client.callTool('echo', { text: 'mine' })).content).toEqual([{ type: 'text', text: 'mine' }]);
    const closed = new Promise<string>((done) => wire.onClose(done));
    wire.end();
    expect(await closed).toBe('server exited with code 0');
  });

  it("rejects start with the shared bridge's reason", async () => {
    const { url, origin } = await realBridge(false);
    await expect(browserLikeHost(url, origin).start(learnerSpec())).rejects.toThrow(SHARED_BRIDGE_LEARNER_REFUSAL);
  });
});

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}
