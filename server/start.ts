// `npm start`: build the app if needed, then serve dist/ and the local bridge on ONE port.
//
//   npm start                      http://127.0.0.1:5317/, only this machine
//   npm start -- --port=0          any free port (the URL printed is the real one)
//   npm start -- --host[=ADDR]     share one bridge on a workshop LAN (binds 0.0.0.0 by default);
//                                  prints a join link per network interface
//   npm start -- --host --room=FILE
//                                  the workshop room's SQLite file (default: one per day under the
//                                  user's cache folder, so a restart the same day keeps the room)
//   npm start -- --learner-code-in-node
//                                  let "Check my server" run the learner's code as a Node process
//                                  here, in the OS sandbox (learner-sandbox.ts); refused without one.
//                                  Without the flag the page runs it in its in-browser worker.
//
// One port for both means the page's origin and the bridge's are the same, so the bridge's Origin
// check is a plain list of this server's own URLs.

import { readdir, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNodePrograms } from '../scripts/build-node-programs.ts';
import { createBridgeToken } from './bridge-auth.ts';
import { handleBridgeTokenRequest, type TokenEndpointOptions } from './bridge-token-endpoint.ts';
import { allInterfaceOrigins, bridgeMetaFor, hostForUrl, injectBridgeMeta, isLoopbackHost, lanAddresses, loopbackOrigins } from './bridge-page.ts';
import { createBridge, learnerCodeMode, type Bridge, type LearnerCodeOnBridge } from './bridge.ts';
import type { SessionLimits } from './bridge-session.ts';
import { detectLearnerSandbox, type SandboxDetection } from './learner-sandbox.ts';
import { createRoom, type Room } from './room/room.ts';
import { defaultRoomFile, prepareRoomFile } from './room/room-file.ts';
import { RoomStore } from './room/room-store.ts';
import { openRoomDatabase } from './room/sqlite.ts';
import { answerClientError, rawHttpResponse } from './security-headers.ts';
import { createStaticHandler, type StaticHandler } from './static-files.ts';
import { PROJECT_ROOT } from '../tools/project-root.ts';

export const DEFAULT_PORT = 5317;
export const DEFAULT_LOOPBACK = '127.0.0.1';
export const DEFAULT_SHARED_BIND = '0.0.0.0';

export interface StartServerOptions {
  /** Default 5317; 0 picks a free port. */
  port?: number;
  /** The address to bind. Default 127.0.0.1, or 0.0.0.0 when shared. */
  host?: string;
  /** --host mode: a bridge shared on the LAN; the token goes only to pages opened with it. */
  shared?: boolean;
  /** --host mode: the workshop room's SQLite file; default an in-memory room (the CLI passes a file). */
  roomFile?: string;
  /** The built app to serve; default <project>/dist. */
  distDir?: string;
  /** Where the built echo servers (and tap.mjs, for the WebContainer) are; default <distDir>/generated. */
  programsDir?: string;
  /** Serve distDir as it is: no app build, no program build (tests pass a tiny fake dist). */
  skipBuild?: boolean;
  maxTotal?: number;
  /** --learner-code-in-node: run learner-server here, in the OS sandbox (never when shared). */
  learnerCodeInNode?: boolean;
  /** Tests: the sandbox to use (or its absence) instead of looking for one. */
  learnerSandbox?: SandboxDetection;
  sessionLimits?: Partial<SessionLimits>;
  /** How long a client may take to send its request headers, and its whole request (slowloris). */
  httpTimeouts?: { headersMs: number; requestMs: number; checkIntervalMs?: number };
  log?: (line: string) => void;
}

/** A page asks for small files on loopback: seconds are plenty, and a slow sender gets a 408. */
export const DEFAULT_HTTP_TIMEOUTS = { headersMs: 10_000, requestMs: 30_000, checkIntervalMs: 1_000 };

export interface RunningServer {
  /** The URL to open on this machine, e.g. http://127.0.0.1:5317/ */
  url: string;
  port: number;
  token: string;
  /** --host mode: one link per LAN address, token included. Empty on loopback. */
  joinUrls: string[];
  /** --host mode: the workshop room (its join code is what attendees type). Null on loopback. */
  room: Room | null;
  bridge: Bridge;
  /** Stop serving, close every bridge connection, and wait until every child process is gone. */
  close(): Promise<void>;
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const shared = options.shared ?? false;
  const host = options.host ?? (shared ? DEFAULT_SHARED_BIND : DEFAULT_LOOPBACK);
  if (!shared && !isLoopbackHost(host)) {
    // Outside loopback every page would get the token; that is what shared mode exists to prevent.
    throw new Error(`binding ${host} shares the bridge beyond this machine: use shared mode (--host)`);
  }
  const log = options.log ?? ((line: string) => console.log(line));
  const distDir = resolve(options.distDir ?? resolve(PROJECT_ROOT, 'dist'));
  const programsDir = resolve(options.programsDir ?? resolve(distDir, 'generated'));

  if (!options.skipBuild) {
    if (await appBuildIsStale(PROJECT_ROOT, distDir)) {
      log('Building the app (vite build)...');
      await buildApp(PROJECT_ROOT, distDir);
    }
    // Cheap (well under a second) and always current, so it runs every start.
    await buildNodePrograms(programsDir);
  }

  const learnerCode = await learnerCodeFor(shared, options, log);
  const token = createBridgeToken();
  let port = 0;
  const ownOrigins = (): string[] => (shared ? allInterfaceOrigins(port) : [...loopbackOrigins(port), `http://${hostForUrl(host)}:${port}`]);
  const bridge = createBridge({
    token,
    programsDir,
    maxTotal: options.maxTotal,
    // Learner code only on this machine's own bridge, opted in, and in the sandbox.
    learnerCode,
    sessionLimits: options.sessionLimits,
    allowedOrigins: ownOrigins,
    log: (line) => log(`[bridge] ${line}`),
  });
  const mode = { token, shared, learnerCode: learnerCodeMode(learnerCode) };
  const roomJoinUrls = (): string[] => (shared ? joinHostsFor(host).map((address) => `http://${address}:${port}/#join`) : []);
  const room = shared
    ? createRoom({
        store: new RoomStore(openRoomDatabase(options.roomFile ?? ':memory:')),
        file: options.roomFile ?? ':memory:',
        ownOrigins,
        joinUrls: roomJoinUrls,
        bridgeToken: token,
        log: (line) => log(`[room] ${line}`),
      })
    : null;
  const timeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...options.httpTimeouts };
  const server = createServer(
    { headersTimeout: timeouts.headersMs, requestTimeout: timeouts.requestMs, connectionsCheckingInterval: timeouts.checkIntervalMs },
    withRoomAndBridgeToken(
      room,
      { mode, ownOrigins },
      createStaticHandler({
        root: distDir,
        transformIndexHtml: (html, req) => {
          // DNS rebinding: a site whose name now resolves to 127.0.0.1 could load this page as its
          // own. The Origin check already stops it at /bridge, and the token endpoint checks Host
          // too; the learner-code tag follows the same rule.
          const ours = ownOrigins().includes(`http://${req.headers.host ?? ''}`);
          const meta = bridgeMetaFor(req.url ?? '/', mode);
          return injectBridgeMeta(html, ours ? meta : { token: null, shared: meta.shared });
        },
      }),
    ),
  );
  server.on('upgrade', (req, socket, head: Buffer) => {
    if (!bridge.handleUpgrade(req, socket, head)) {
      socket.on('error', () => {});
      socket.end(rawHttpResponse(404, 'Not Found'));
    }
  });
  // Node's own 400/408/431 answers would go out without the isolation headers.
  server.on('clientError', answerClientError);

  port = await listen(server, options.port ?? DEFAULT_PORT, host);
  const localHost = host === DEFAULT_SHARED_BIND || host === '::' ? DEFAULT_LOOPBACK : hostForUrl(host);
  const joinHosts = joinHostsFor(host);

  let closed: Promise<void> | null = null;
  return {
    url: `http://${localHost}:${port}/`,
    port,
    token,
    joinUrls: shared ? joinHosts.map((address) => `http://${address}:${port}/?token=${token}`) : [],
    room,
    bridge,
    close: () => (closed ??= closeServer(server, bridge).finally(() => room?.close())),
  };
}

/** The addresses attendees reach this machine at: every LAN address when bound to all of them. */
function joinHostsFor(host: string): string[] {
  return host === DEFAULT_SHARED_BIND || host === '::' ? lanAddresses() : [hostForUrl(host)];
}

async function learnerCodeFor(shared: boolean, options: StartServerOptions, log: (line: string) => void): Promise<LearnerCodeOnBridge> {
  if (shared) return { run: 'never', why: 'shared-bridge' };
  if (!options.learnerCodeInNode) return { run: 'never', why: 'not-enabled' };
  const detection = options.learnerSandbox ?? (await detectLearnerSandbox());
  if (detection.ok) return { run: 'sandboxed', sandbox: detection.sandbox };
  log(`--learner-code-in-node: ${detection.reason}. Learner code will not run on this bridge; the page runs it in its worker.`);
  return { run: 'never', why: 'no-sandbox' };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new Error(`port ${port} on ${host} is in use: try --port=0 for a free one`) : error);
    });
    server.listen(port, host, () => resolvePort((server.address() as AddressInfo).port));
  });
}

async function closeServer(server: Server, bridge: Bridge): Promise<void> {
  const stopped = new Promise<void>((done) => server.close(() => done()));
  server.closeAllConnections();
  await bridge.closeAll();
  await stopped;
}

// ---- building the app when dist/ is missing or older than its sources ----

// Stale means: a file the build reads changed after dist/index.html was written. Modification
// times are a heuristic (a checkout or branch switch can set them either way), good enough for a
// convenience rebuild; deleting dist/ always forces one. public/ is left out on purpose: the Vite
// plugin rewrites public/generated on every build, which would make every start look stale.
const BUILD_INPUTS = ['src', 'exercises', 'index.html', 'vite.config.ts'];

export async function appBuildIsStale(projectRoot: string, distDir: string): Promise<boolean> {
  const builtAt = await newestModification(join(distDir, 'index.html'));
  if (builtAt === 0) return true;
  for (const input of BUILD_INPUTS) {
    if ((await newestModification(join(projectRoot, input))) > builtAt) return true;
  }
  return false;
}

/** The latest mtime of a file or anything under a directory; 0 when it does not exist. */
async function newestModification(path: string): Promise<number> {
  let info;
  try {
    info = await stat(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  // The directory's own mtime counts too: deleting or renaming a file changes only that.
  let newest = info.mtimeMs;
  for (const entry of await readdir(path)) newest = Math.max(newest, await newestModification(join(path, entry)));
  return newest;
}

async function buildApp(projectRoot: string, distDir: string): Promise<void> {
  // Loaded only when needed: serving an up-to-date dist/ should not pay for loading Vite.
  const { build } = await import('vite');
  await build({ root: projectRoot, logLevel: 'warn', build: { outDir: distDir, emptyOutDir: true } });
}

// ---- the CLI ----

export type StartArgs =
  | { kind: 'run'; port: number; host: string | null; distDir: string | null; build: boolean; learnerCodeInNode: boolean; roomFile: string | null }
  | { kind: 'help' }
  | { kind: 'usage-error'; message: string };

export const START_USAGE = `usage: npm start [-- --port=N] [--host[=ADDR]] [--dist=DIR] [--no-build]
  --port=N      port to serve on (default ${DEFAULT_PORT}; 0 picks a free one)
  --host[=ADDR] share the bridge on the LAN (binds ${DEFAULT_SHARED_BIND} unless ADDR is given);
                only pages opened through a printed join link can use it
  --room=FILE   with --host: keep the workshop room in this SQLite file (default: one file
                per day under ~/.cache/mcp-playground/rooms, so a restart keeps the room)
  --dist=DIR    serve this build instead of dist/ (its Node programs in DIR/generated)
  --no-build    serve the build as it is: no vite build, no rebuild of the Node programs
  --learner-code-in-node
                let "Check my server" run your exercise-4 code as a Node process on this
                machine, inside an OS sandbox (bubblewrap + prlimit, Linux); without the
                flag, or without the sandbox, the page runs it in its in-browser worker`;

/** `host` is null for loopback mode, otherwise the address to bind in shared mode. */
export function parseStartArgs(argv: readonly string[]): StartArgs {
  let port = DEFAULT_PORT;
  let host: string | null = null;
  let distDir: string | null = null;
  let build = true;
  let learnerCodeInNode = false;
  let roomFile: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--host') host = DEFAULT_SHARED_BIND;
    else if (arg.startsWith('--host=')) host = arg.slice('--host='.length) || DEFAULT_SHARED_BIND;
    else if (arg === '--no-build') build = false;
    else if (arg === '--learner-code-in-node') learnerCodeInNode = true;
    else if (arg.startsWith('--dist=') && arg.length > '--dist='.length) distDir = arg.slice('--dist='.length);
    else if (arg.startsWith('--room=') && arg.length > '--room='.length) roomFile = arg.slice('--room='.length);
    else if (arg === '--port' || arg.startsWith('--port=')) {
      const value = arg === '--port' ? argv[++i] : arg.slice('--port='.length);
      if (value === undefined || !/^\d{1,5}$/.test(value) || Number(value) > 65535) return { kind: 'usage-error', message: `bad port: ${value ?? '(none)'}` };
      port = Number(value);
    } else return { kind: 'usage-error', message: `unknown option: ${arg}` };
  }
  if (roomFile !== null && host === null) return { kind: 'usage-error', message: '--room needs --host: the workshop room lives on a shared bridge' };
  return { kind: 'run', port, host, distDir, build, learnerCodeInNode, roomFile };
}

async function main(): Promise<void> {
  const args = parseStartArgs(process.argv.slice(2));
  if (args.kind !== 'run') {
    if (args.kind === 'usage-error') console.error(args.message);
    console.log(START_USAGE);
    process.exitCode = args.kind === 'help' ? 0 : 2;
    return;
  }
  const running = await startServer({
    port: args.port,
    shared: args.host !== null,
    host: args.host ?? undefined,
    distDir: args.distDir ?? undefined,
    skipBuild: !args.build,
    learnerCodeInNode: args.learnerCodeInNode,
    roomFile: args.host === null ? undefined : prepareRoomFile(args.roomFile ?? defaultRoomFile(new Date())),
  });
  // From here on, however this process ends, no child outlives it (see stopOnExit).
  stopOnExit(running);
  console.log(`MCP Playground: ${running.url}`);
  if (running.joinUrls.length > 0) {
    console.log('Shared bridge: anyone with a join link can run the echo servers on this machine.');
    console.log('It never runs code a page sends: "Check my server" runs in each learner\'s in-browser worker.');
    for (const url of running.joinUrls) console.log(`  join: ${url}`);
  }
  if (running.room !== null) {
    const code = running.room.joinCode;
    console.log(`Workshop room: join code ${code.slice(0, 3)}-${code.slice(3)} (${running.room.engine}, ${running.room.file})`);
    for (const url of running.room.joinUrls()) console.log(`  attendees open ${url} and type the code`);
    console.log(`  the class, the QR code and the code to show: ${running.url}#room`);
  }

}

/**
 * No orphan, however the bridge ends: SIGINT/SIGTERM/SIGHUP close every connection and wait for
 * every child (SIGTERM, then SIGKILL); an uncaught error or any other exit SIGKILLs every process
 * group synchronously first. (A SIGKILL of the bridge itself cannot be caught: then the learner's
 * sandbox dies with its parent (bwrap --die-with-parent), and the echo servers end when their
 * stdin closes.) Learner jobs never touch the host's disk, so there is no folder to leave behind.
 */
export function stopOnExit(running: RunningServer, exit: (code: number) => void = (code) => process.exit(code)): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    // A second Ctrl-C means "now": kill every child at once.
    if (stopping) {
      running.bridge.killAllNow();
      exit(130);
      return;
    }
    stopping = true;
    console.log(`\n${signal}: stopping the server and every echo server it started...`);
    running.close().then(
      () => exit(0),
      (error: unknown) => {
        console.error(error);
        running.bridge.killAllNow();
        exit(1);
      },
    );
  };
  const crash = (error: unknown): void => {
    running.bridge.killAllNow();
    console.error('the server failed; every process it started was killed:', error);
    exit(1);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  process.on('exit', () => running.bridge.killAllNow());
}

const runAsScript = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (runAsScript) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

/** The room's requests (/__room/…) and GET /__bridge/token first, every other request to the static files. */
function withRoomAndBridgeToken(room: Room | null, options: TokenEndpointOptions, next: StaticHandler): StaticHandler {
  return (req, res) => {
    if (room?.handle(req, res)) return;
    if (!handleBridgeTokenRequest(req, res, options)) next(req, res);
  };
}
