// The page side of the Chromium hosts benchmark, bundled by esbuild (see hosts-browser.ts) and
// loaded by a bare bench page. It runs the real browser hosts, unchanged: createBridgeHost() with
// no options, so it reads the bridge token from the <meta> tag that startServer injected, exactly
// as the app does; and createWorkerHost() with a worker made from the bundled echo-worker.ts.
// The page exposes its functions on window; Node calls them through CDP Runtime.evaluate (see
// hosts-cdp.ts) and reads back the round-trip times, measured here with the page's own
// performance.now() (5 µs resolution: startServer's headers make the page cross-origin isolated).

import { McpClient } from '../src/protocol/client.ts';
import { getFraming } from '../src/protocol/framing/index.ts';
import { encodeRequest } from '../src/protocol/jsonrpc.ts';
import { LATEST_PROTOCOL_VERSION } from '../src/protocol/mcp.ts';
import { createBridgeHost } from '../src/runtime/bridge-host.ts';
import type { Host, ProgramSpec, Wire } from '../src/runtime/host.ts';
import type { PageToWorker } from '../src/runtime/echo-worker-core.ts';
import { bytesToBase64, encodeTapCommand } from '../src/runtime/tap-protocol.ts';
import { createWorkerHost, type WorkerLike } from '../src/runtime/worker-host.ts';
import { ECHO_TEXT, timeEchoCalls, timeRoundTrips, type CallPlan } from './hosts-timing.ts';

export type PageHostKind = 'bridge' | 'worker';

export interface HostsBenchPage {
  /** Start an echo server on the host, connect, time the calls, stop the server. */
  run(kind: PageHostKind, plan: CallPlan, workerUrl: string): Promise<number[]>;
  /**
   * The floor under the bridge: this page's WebSocket to a bare echo socket at `url`, one message
   * each way, no bridge, no tap, no server. The message is the very line the bridge host sends for
   * one echo call, so the sizes match.
   */
  webSocketEcho(url: string, plan: CallPlan): Promise<number[]>;
  /**
   * The floor under any bridge: this page's WebSocket to a bare relay at `url` that pipes raw bytes
   * to a fresh echo server's stdin and its stdout back (no tap, no events, no base64), with the
   * least client there is: one JSON-RPC line out, one parsed line back. Every host's work is left
   * out; what remains is Chromium, the socket, one Node process and the echo server.
   */
  relayEcho(url: string, plan: CallPlan): Promise<number[]>;
  /**
   * For the last bridge run's timed calls: how long the echo server took as the bridge's tap saw
   * it (the tap time of the response's s2c event less the request's c2s), the part of each round
   * trip that is neither Chromium, nor the WebSocket, nor the bridge's relaying.
   */
  bridgeServerSpans(): number[];
}

declare global {
  interface Window {
    hostsBench?: HostsBenchPage;
  }
}

const SPEC: ProgramSpec = { program: 'echo-server', framing: 'ndjson', faults: [] };
const REQUEST_TIMEOUT_MS = 10_000;
const EXIT_GRACE_MS = 3_000;

let serverSpans: number[] = [];
let timedCalls = 0;

async function run(kind: PageHostKind, plan: CallPlan, workerUrl: string): Promise<number[]> {
  const host: Host = kind === 'bridge' ? createBridgeHost() : createWorkerHost({ createWorker: () => moduleWorker(workerUrl) });
  const wire = await host.start(SPEC);
  if (kind === 'bridge') {
    // One call at a time: each request's c2s is followed by its response's s2c.
    const spans: number[] = [];
    let sentAt: number | null = null;
    wire.onTapEvent((event) => {
      if (event.ev === 'c2s') sentAt ??= event.t;
      if (event.ev === 's2c' && sentAt !== null) {
        spans.push(event.t - sentAt);
        sentAt = null;
      }
    });
    // The timed calls are the last ones (the handshake's and the warm-up's spans come first).
    serverSpans = spans;
    timedCalls = plan.calls;
  }
  const client = new McpClient(wire, { framing: 'ndjson', requestTimeoutMs: REQUEST_TIMEOUT_MS });
  try {
    await client.connect();
    return await timeEchoCalls((text) => client.callTool('echo', { text }), () => performance.now(), plan);
  } finally {
    const closed = new Promise<void>((resolve) => wire.onClose(() => resolve()));
    client.close(); // EOF on the server's stdin: it exits, and the host tears itself down
    await stopWithin(wire, closed, EXIT_GRACE_MS);
  }
}

async function stopWithin(wire: Wire, closed: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  if ((await Promise.race([closed, late])) === 'late') {
    wire.kill();
    await closed;
  }
  clearTimeout(timer);
}

// The same adapter worker-host.ts builds for its default worker, pointed at the bundled file.
function moduleWorker(url: string): WorkerLike {
  const worker = new Worker(url, { type: 'module' });
  return {
    postMessage: (message: PageToWorker) => worker.postMessage(message),
    onMessage: (listener) => worker.addEventListener('message', (event: MessageEvent) => listener(event.data)),
    onError: (listener) => {
      worker.addEventListener('error', (event: ErrorEvent) => {
        event.preventDefault();
        listener(event.message || 'the worker script could not be loaded');
      });
    },
    terminate: () => worker.terminate(),
  };
}

async function webSocketEcho(url: string, plan: CallPlan): Promise<number[]> {
  const request = getFraming('ndjson').encode(encodeRequest(1, 'tools/call', { name: 'echo', arguments: { text: ECHO_TEXT } }));
  const line = encodeTapCommand({ cmd: 'write', b64: bytesToBase64(request) });
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve();
    socket.onerror = () => reject(new Error(`could not open the echo socket at ${url}`));
  });
  let answered: ((text: string) => void) | null = null;
  socket.onmessage = (event: MessageEvent) => answered?.(String(event.data));
  const roundTrip = () =>
    new Promise<string>((resolve) => {
      answered = resolve;
      socket.send(line);
    });
  const check = (text: string) => {
    if (text !== line) throw new Error('the echo socket answered something else');
  };
  try {
    return await timeRoundTrips(roundTrip, check, () => performance.now(), plan);
  } finally {
    socket.close();
  }
}

async function relayEcho(url: string, plan: CallPlan): Promise<number[]> {
  const socket = new WebSocket(url);
  socket.binaryType = 'arraybuffer';
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve();
    socket.onerror = () => reject(new Error(`could not open the relay socket at ${url}`));
  });
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let text = '';
  let answered: ((message: { result?: unknown; error?: unknown }) => void) | null = null;
  // Stdout may come in pieces or several lines at once: lines are cut from the text as it grows.
  socket.onmessage = (event: MessageEvent) => {
    text += decoder.decode(new Uint8Array(event.data as ArrayBuffer), { stream: true });
    for (let lf = text.indexOf('\n'); lf !== -1; lf = text.indexOf('\n')) {
      const line = text.slice(0, lf);
      text = text.slice(lf + 1);
      answered?.(JSON.parse(line));
    }
  };
  let id = 0;
  const send = (message: object) => socket.send(encoder.encode(`${JSON.stringify(message)}\n`));
  const request = (method: string, params: object) =>
    new Promise<unknown>((resolve, reject) => {
      answered = (message) => (message.error === undefined ? resolve(message.result) : reject(new Error(JSON.stringify(message.error))));
      send({ jsonrpc: '2.0', id: ++id, method, params });
    });
  try {
    await request('initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'bench-relay', version: '1.0.0' } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return await timeEchoCalls((echo) => request('tools/call', { name: 'echo', arguments: { text: echo } }), () => performance.now(), plan);
  } finally {
    socket.close();
  }
}

window.hostsBench = { run, webSocketEcho, relayEcho, bridgeServerSpans: () => serverSpans.slice(-timedCalls) };
