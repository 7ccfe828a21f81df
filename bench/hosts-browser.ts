// The two hosts measured in real headless Chromium (Debian's, with the e2e tests' flags, driven
// over a bare CDP pipe: see hosts-cdp.ts for why not Playwright): the local bridge and the
// in-browser worker.
//
// The approach, and why: the page must run the real host modules, but the production bundle does
// not expose them (and the React app would share the page's main thread with the measurement). So
// esbuild bundles a bench page — bench/hosts-page.ts (the real bridge-host.ts, worker-host.ts and
// McpClient) and src/runtime/echo-worker.ts as its own module worker — into a temporary site
// directory, next to the freshly built Node programs (generated/). The REAL server/start.ts serves
// that directory (`distDir`) with the bridge on the same port, so the page gets its token from the
// <meta> tag startServer injects, the isolation headers the app gets, and a bridge that spawns the
// real tap and echo server. Only the app bundle is left out: it is not on the measured path.
//
// For reference the page also times its WebSocket against a bare `ws` echo socket (what
// Chromium's WebSocket costs by itself) and against a bare byte relay to the echo server (what any
// bridge costs here, with no tap and no client to speak of): the two floors under the bridge row. It is served by the same
// server, on the same port, under ECHO_PATH: the page's CSP (`connect-src 'self'`, the app's own)
// refuses a socket on any other port, and the bench must load its page under that CSP.

import { writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { WebSocketServer, type WebSocket } from 'ws';
import { startServer, type RunningServer } from '../server/start.ts';
import { openChromiumPage, type CdpPage } from './hosts-cdp.ts';
import type { PageHostKind } from './hosts-page.ts';
import { PRIMING_PLAN, type CallPlan } from './hosts-timing.ts';
import { perCallShares, snapshot, totalsBetween, watchChild, type CpuShares } from './thread-cpu.ts';
import { PROJECT_ROOT } from '../tools/project-root.ts';
import { viteWorkerUrlStandIn } from '../tools/esbuild-worker-url.ts';

const PAGE_SCRIPT = 'bench.js';
const WORKER_SCRIPT = 'echo-worker.js';
const RUN_TIMEOUT_MS = 30_000;
const ECHO_PATH = '/bench-echo';
const RELAY_PATH = '/bench-relay';
/** The profiled bridge run makes this many calls for each timed one (more calls, finer shares). */
const PROFILE_CALLS_PER_TIMED_CALL = 5;
const PROFILE_MIN_EXTRA_CALLS = 200;

export interface BrowserHostSamples {
  bridge: number[];
  worker: number[];
  /** Chromium's WebSocket to a bare echo socket: the floor under the bridge. */
  webSocketEcho: number[];
  /** Chromium's WebSocket to a bare byte relay and the echo server behind it: the floor under any bridge. */
  bareRelay: number[];
  /** Inside the bridge row: the echo server's time, as the bridge's tap saw it (c2s → s2c). */
  bridgeServer: number[];
  /** CPU per bridge call, by process and thread, from a separate run of `profileCalls` calls (Linux only). */
  bridgeCpu: CpuShares | null;
  profileCalls: number;
}

const BENCH_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>MCP Playground: hosts benchmark</title>
  </head>
  <body>
    <script type="module" src="/${PAGE_SCRIPT}"></script>
  </body>
</html>
`;

/** Write the bench page, its script and the echo worker into `siteDir` (which already holds generated/). */
export async function buildBenchSite(siteDir: string): Promise<void> {
  const common = { absWorkingDir: PROJECT_ROOT, bundle: true, platform: 'browser', format: 'esm', target: 'es2022', minify: true, logLevel: 'silent' } as const;
  await Promise.all([
    build({ ...common, plugins: [viteWorkerUrlStandIn], entryPoints: ['bench/hosts-page.ts'], outfile: join(siteDir, PAGE_SCRIPT) }),
    build({ ...common, entryPoints: ['src/runtime/echo-worker.ts'], outfile: join(siteDir, WORKER_SCRIPT) }),
    writeFile(join(siteDir, 'index.html'), BENCH_HTML),
  ]);
}

/** Serve `siteDir` with startServer, open it in Chromium, and run both page hosts one after the other. */
export async function measureBrowserHosts(siteDir: string, plan: CallPlan, priming: CallPlan = PRIMING_PLAN): Promise<BrowserHostSamples> {
  const serverLog: string[] = [];
  // skipBuild: the site is not the app, and its generated/ programs were just built by the caller.
  const server = await startServer({ port: 0, distDir: siteDir, skipBuild: true, log: (line) => serverLog.push(line) });
  const echoSocket = serveEchoSocket(server);
  const relaySocket = serveRelaySocket(server, join(siteDir, 'generated', 'echo-server.mjs'));
  let page: CdpPage | null = null;
  try {
    page = await openChromiumPage(server.url, RUN_TIMEOUT_MS);
    await page.waitFor('window.hostsBench !== undefined', RUN_TIMEOUT_MS);
    const on = page;
    const runOnPage = (kind: PageHostKind, onPlan: CallPlan) => on.evaluate<number[]>(`window.hostsBench.run(${args(kind, onPlan, `/${WORKER_SCRIPT}`)})`);
    const echoOnPage = (onPlan: CallPlan) => on.evaluate<number[]>(`window.hostsBench.webSocketEcho(${args(echoSocket.url, onPlan)})`);
    const relayOnPage = (onPlan: CallPlan) => on.evaluate<number[]>(`window.hostsBench.relayEcho(${args(relaySocket.url, onPlan)})`);
    // The priming pass (see PRIMING_PLAN), then the timed one.
    await runOnPage('bridge', priming);
    await runOnPage('worker', priming);
    await echoOnPage(priming);
    await relayOnPage(priming);
    const bridge = await runOnPage('bridge', plan);
    const bridgeServer = await on.evaluate<number[]>('window.hostsBench.bridgeServerSpans()');
    const worker = await runOnPage('worker', plan);
    const webSocketEcho = await echoOnPage(plan);
    const bareRelay = await relayOnPage(plan);
    // Where the bridge's time goes: two more bridge sessions, untimed, a short and a long one, with
    // every thread's CPU time read before and after each (thread-cpu.ts); their difference per
    // extra call leaves out what a session spends once (spawning the server, connecting).
    const profiled = async (calls: number): Promise<Map<string, number> | null> => {
      const before = snapshot();
      const echoServer = watchChild('echo-server.mjs');
      await runOnPage('bridge', { warmUp: 0, calls });
      const after = snapshot();
      const echoNs = echoServer.stop();
      return before && after ? totalsBetween(before, after, { 'echo server (its own process)': echoNs }) : null;
    };
    // At least PROFILE_MIN_EXTRA_CALLS more in the long one, so that a stray GC in either session
    // is small beside the difference (at smoke size too).
    const profileCalls = Math.max(plan.calls * PROFILE_CALLS_PER_TIMED_CALL, PROFILE_MIN_EXTRA_CALLS);
    const short = await profiled(plan.calls);
    const long = await profiled(plan.calls + profileCalls);
    const bridgeCpu = short && long ? perCallShares(short, long, profileCalls) : null;
    return { bridge, worker, webSocketEcho, bareRelay, bridgeServer, bridgeCpu, profileCalls };
  } catch (error) {
    const detail = serverLog.slice(-20).join('\n');
    throw new Error(`the Chromium hosts benchmark failed: ${error instanceof Error ? error.message : String(error)}${detail ? `\n${detail}` : ''}`);
  } finally {
    await page?.close();
    await echoSocket.close();
    await relaySocket.close();
    await server.close(); // waits until every tap and server the bridge started is gone
  }
}

function args(...values: unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

/** A WebSocket at ECHO_PATH that sends every message straight back. */
function serveEchoSocket(server: RunningServer): BenchSocket {
  return serveBenchSocket(server, ECHO_PATH, (socket) => socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary })));
}

/**
 * A WebSocket at RELAY_PATH that runs the echo server for each connection and pipes bytes, nothing
 * else: a message's bytes to its stdin, each stdout chunk back as one binary message (stderr is
 * dropped, the process ends with the socket). The least a bridge can do, for the floor row.
 */
function serveRelaySocket(server: RunningServer, echoServerPath: string): BenchSocket {
  return serveBenchSocket(server, RELAY_PATH, (socket) => {
    const child = spawn(process.execPath, [echoServerPath], { stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdout.on('data', (chunk: Buffer) => socket.send(chunk, { binary: true }));
    child.stdin.on('error', () => {}); // the socket closed first: the kill below ends it
    socket.on('message', (data: Buffer) => child.stdin.write(data));
    socket.on('close', () => child.kill());
    child.once('exit', () => socket.close());
  });
}

interface BenchSocket {
  url: string;
  close(): Promise<void>;
}

/**
 * A WebSocket at `path` on `server`'s own port. startServer hands every upgrade to its bridge's
 * handleUpgrade (and answers 404 when it returns false), so the bench puts its socket in front of
 * it: the bridge itself is left as it is.
 */
function serveBenchSocket(server: RunningServer, path: string, onConnection: (socket: WebSocket) => void): BenchSocket {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  wss.on('connection', onConnection);
  const nextUpgrade = server.bridge.handleUpgrade.bind(server.bridge);
  server.bridge.handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): boolean => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== path) return nextUpgrade(req, socket, head);
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    return true;
  };
  return {
    url: `${server.url.replace(/^http/, 'ws').replace(/\/$/, '')}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}
