// The WebContainer host: real Node.js in the page, running the tap, which runs the echo server.
// The runtime loads from StackBlitz's servers, allows one instance per page, needs cross-origin
// isolation, and offline its boot() never settles, so everything here is about saying early and
// plainly why it cannot be used, and about reading tap lines through a pseudo-terminal.

import { programArguments } from './bridge-messages.ts';
import { checkLearnerServerSource, checkSessionOptions, encodeLearnerServerJob } from './learner-server-job.ts';
import { TimeoutError, once, oncePerPage, withTimeout } from './boot-once.ts';
import { isHttpProgram, type Host, type HostAvailability, type ProgramSpec, type Wire } from './host.ts';
import { HostReasonError, reasonCodeOf } from './host-reason.ts';
import { PtyLineSplitter } from './pty-line-splitter.ts';
import { encodeTapEvent, type TapEvent } from './tap-protocol.ts';
import { createTapWire, type LineChannel } from './tap-wire.ts';
import { ListenerSet } from './listener-set.ts';
import { pageLimit } from '../sandbox/page-limits.ts';

/** The slice of `WebContainerProcess` (from `@webcontainer/api`) this host uses. */
export interface WebContainerProcessLike {
  readonly output: ReadableStream<string>;
  readonly input: WritableStream<string>;
  readonly exit: Promise<number>;
  kill(): void;
}

export type MountTree = Record<string, { file: { contents: string } }>;

export interface SpawnOptionsLike {
  output?: boolean;
  terminal?: { cols: number; rows: number };
}

/** The slice of `WebContainer` this host uses; tests pass a fake that runs real Node. */
export interface WebContainerLike {
  mount(tree: MountTree): Promise<void>;
  spawn(command: string, args: string[], options?: SpawnOptionsLike): Promise<WebContainerProcessLike>;
}

/** The bundles the host mounts: built by scripts/build-node-programs.ts into public/generated/. */
export const WEBCONTAINER_FILES = ['tap', 'echo-server', 'sdk-echo-server'] as const;
/**
 * The learner-server runner (about 750 KB with sucrase) is fetched and mounted on the first
 * learner-server start only: most visits never check their server, and every visit probes.
 */
export const LEARNER_RUNNER_FILE = 'learner-server';
/** The HTTP echo server (about 75 KB): mounted on its first start too, for the same reason. */
export const HTTP_SERVER_FILE = 'mcp-http';
/** The SDK 2.4.0 echo server (about 1.4 MB): mounted on its first start, for the same reason. */
export const SDK2_SERVER_FILE = 'sdk2-echo-server';
/** The official SDK's Streamable HTTP echo server (Check my client, HTTP mode): mounted on its first start. */
export const SDK_HTTP_SERVER_FILE = 'sdk-http-server';
export type WebContainerFileName = (typeof WEBCONTAINER_FILES)[number] | typeof LEARNER_RUNNER_FILE | typeof HTTP_SERVER_FILE | typeof SDK2_SERVER_FILE | typeof SDK_HTTP_SERVER_FILE;

export const DEFAULT_BOOT_TIMEOUT_MS = 6000;
export const DEFAULT_SPAWN_TIMEOUT_MS = 15_000;
const EXIT_WAIT_MS = 1000;
// A wide terminal: nothing in the pseudo-terminal path should ever need to wrap a tap line.
const TERMINAL_SIZE = { cols: 1000, rows: 40 };

export interface WebContainerHostDeps {
  /** Default: `WebContainer.boot()` from `@webcontainer/api`, once per page. */
  boot?: () => Promise<WebContainerLike>;
  /** Default: fetch `<base>generated/<name>.mjs`. */
  fetchProgram?: (name: WebContainerFileName) => Promise<string>;
  /** How long boot() may take before we call the host unavailable. */
  timeoutMs?: number;
  /** How long the tap may take to report that the server is running. */
  spawnTimeoutMs?: number;
  /** Default: `globalThis.crossOriginIsolated`. */
  isolated?: () => boolean;
  /** Default: whether `SharedArrayBuffer` exists. */
  hasSharedArrayBuffer?: () => boolean;
  /** Must match the page's Cross-Origin-Embedder-Policy header; used by the default boot only. */
  coep?: 'require-corp' | 'credentialless';
}

export interface WebContainerHost extends Host {
  readonly kind: 'webcontainer';
  /** Boots (once), loads and mounts the programs; says why not when it cannot. */
  probe(): Promise<HostAvailability>;
}

export function createWebContainerHost(deps: WebContainerHostDeps = {}): WebContainerHost {
  const timeoutMs = deps.timeoutMs ?? pageLimit('webContainerBootMs', DEFAULT_BOOT_TIMEOUT_MS);
  const spawnTimeoutMs = deps.spawnTimeoutMs ?? DEFAULT_SPAWN_TIMEOUT_MS;
  const isolated = deps.isolated ?? (() => globalThis.crossOriginIsolated === true);
  const hasSharedArrayBuffer = deps.hasSharedArrayBuffer ?? (() => typeof SharedArrayBuffer === 'function');
  const coep = deps.coep ?? 'require-corp';
  // An injected boot belongs to this host; the real one belongs to the page (one instance only).
  const boot = deps.boot ? once(deps.boot) : () => oncePerPage('webcontainer-boot', () => bootRealWebContainer(coep));
  const fetchProgram = deps.fetchProgram ?? fetchGeneratedProgram;
  const loadFiles = once(() => loadMountTree(fetchProgram));
  const mounted = new WeakMap<WebContainerLike, Promise<void>>();
  const loadRunner = once(() => fetchProgram(LEARNER_RUNNER_FILE));
  const runnerMounted = new WeakMap<WebContainerLike, Promise<void>>();
  let jobs = 0;

  const loadHttpServer = once(() => fetchProgram(HTTP_SERVER_FILE));
  const httpServerMounted = new WeakMap<WebContainerLike, Promise<void>>();
  function mountHttpServerOnce(instance: WebContainerLike): Promise<void> {
    let mounting = httpServerMounted.get(instance);
    if (!mounting) {
      mounting = loadHttpServer().then((contents) => instance.mount({ [`${HTTP_SERVER_FILE}.mjs`]: { file: { contents } } }));
      httpServerMounted.set(instance, mounting);
      mounting.catch(() => httpServerMounted.delete(instance));
    }
    return mounting;
  }

  const loadSdkHttpServer = once(() => fetchProgram(SDK_HTTP_SERVER_FILE));
  const sdkHttpMounted = new WeakMap<WebContainerLike, Promise<void>>();
  function mountSdkHttpServerOnce(instance: WebContainerLike): Promise<void> {
    let mounting = sdkHttpMounted.get(instance);
    if (!mounting) {
      mounting = loadSdkHttpServer().then((contents) => instance.mount({ [`${SDK_HTTP_SERVER_FILE}.mjs`]: { file: { contents } } }));
      sdkHttpMounted.set(instance, mounting);
      mounting.catch(() => sdkHttpMounted.delete(instance));
    }
    return mounting;
  }

  const loadSdk2Server = once(() => fetchProgram(SDK2_SERVER_FILE));
  const sdk2Mounted = new WeakMap<WebContainerLike, Promise<void>>();
  function mountSdk2ServerOnce(instance: WebContainerLike): Promise<void> {
    let mounting = sdk2Mounted.get(instance);
    if (!mounting) {
      mounting = loadSdk2Server().then((contents) => instance.mount({ [`${SDK2_SERVER_FILE}.mjs`]: { file: { contents } } }));
      sdk2Mounted.set(instance, mounting);
      mounting.catch(() => sdk2Mounted.delete(instance));
    }
    return mounting;
  }

  function mountRunnerOnce(instance: WebContainerLike): Promise<void> {
    let mounting = runnerMounted.get(instance);
    if (!mounting) {
      mounting = loadRunner().then((contents) => instance.mount({ [`${LEARNER_RUNNER_FILE}.mjs`]: { file: { contents } } }));
      runnerMounted.set(instance, mounting);
      mounting.catch(() => runnerMounted.delete(instance));
    }
    return mounting;
  }

  function mountOnce(instance: WebContainerLike): Promise<void> {
    let mounting = mounted.get(instance);
    if (!mounting) {
      mounting = loadFiles().then((tree) => instance.mount(tree));
      mounted.set(instance, mounting);
      mounting.catch(() => mounted.delete(instance));
    }
    return mounting;
  }

  async function ready(): Promise<WebContainerLike> {
    if (!isolated()) throw new HostReasonError(NOT_ISOLATED_REASON, { code: 'not-isolated' });
    if (!hasSharedArrayBuffer()) throw new HostReasonError(NO_SHARED_ARRAY_BUFFER_REASON, { code: 'no-shared-array-buffer' });
    let instance: WebContainerLike;
    try {
      instance = await withTimeout(boot(), timeoutMs);
    } catch (error) {
      if (error instanceof TimeoutError) throw new HostReasonError(bootTimeoutReason(timeoutMs), { code: 'boot-timeout', seconds: bootTimeoutSeconds(timeoutMs) });
      throw new HostReasonError(`WebContainer failed to boot: ${messageOf(error)}`, { code: 'boot-failed', detail: messageOf(error) });
    }
    try {
      await mountOnce(instance);
    } catch (error) {
      throw new HostReasonError(`could not load the server programs into the WebContainer: ${messageOf(error)}`, { code: 'mount-failed', detail: messageOf(error) });
    }
    return instance;
  }

  return {
    kind: 'webcontainer',
    async probe() {
      try {
        await ready();
        return { kind: 'webcontainer', status: 'available' };
      } catch (error) {
        return { kind: 'webcontainer', status: 'unavailable', reason: messageOf(error), ...reasonCodeOf(error) };
      }
    },
    async start(spec) {
      const instance = await ready();
      const programArgs = programArguments(spec);
      if (spec.program === 'learner-server') {
        // The same runner the bridge uses, on a job file written into the container: the learner's
        // code never reaches a command line. The container is the page's own sandbox, so no
        // permission model here (and its Node may not have one).
        const job = learnerServerJobText(spec);
        try {
          await mountRunnerOnce(instance);
        } catch (error) {
          throw new Error(`could not load learner-server.mjs into the WebContainer: ${messageOf(error)}`);
        }
        const name = `learner-job-${++jobs}.json`;
        await instance.mount({ [name]: { file: { contents: job } } });
        programArgs.push(name);
      }
      if (spec.program === 'mcp-http') {
        try {
          await mountHttpServerOnce(instance);
        } catch (error) {
          throw new Error(`could not load mcp-http.mjs into the WebContainer: ${messageOf(error)}`);
        }
        // mcp-http accepts only its own origin unless told otherwise. The container's loopback is
        // reachable from this page alone, so any loopback origin may pass, and so may the page's own
        // (a deployed page's https origin is not on a loopback name).
        programArgs.push('--allow-loopback-origins');
        if (typeof location !== 'undefined' && /^https?:/.test(location.origin)) programArgs.push(`--allow-origin=${location.origin}`);
      }
      if (spec.program === 'sdk2-echo-server') {
        try {
          await mountSdk2ServerOnce(instance);
        } catch (error) {
          throw new Error(`could not load sdk2-echo-server.mjs into the WebContainer: ${messageOf(error)}`);
        }
      }
      if (spec.program === 'sdk-http-server') {
        try {
          await mountSdkHttpServerOnce(instance);
        } catch (error) {
          throw new Error(`could not load sdk-http-server.mjs into the WebContainer: ${messageOf(error)}`);
        }
      }
      // mcp-http and sdk-http-server are HTTP servers: the tap relays TCP connections to the port each prints.
      const http = isHttpProgram(spec.program);
      const args = ['tap.mjs', ...(http ? ['--relay-http'] : []), '--', 'node', `${spec.program}.mjs`, ...programArgs];
      // An HTTP program's wire speaks HTTP itself; loaded on first use (out of the first paint), before the tap starts talking.
      const makeWire = http ? (await import('./http-tap-wire.ts')).createHttpTapWire : createTapWire;
      const tapProcess = await instance.spawn('node', args, { output: true, terminal: TERMINAL_SIZE });
      return startedWire(tapProcess, spec, spawnTimeoutMs, makeWire);
    },
  };
}

/** The job file for learner-server, checked as the bridge checks it; throws a readable Error. */
function learnerServerJobText(spec: ProgramSpec): string {
  const options = checkSessionOptions(spec.framing, spec.faults);
  if (!options.ok) throw new Error(`cannot start learner-server: ${options.reason}`);
  const source = checkLearnerServerSource(spec.learnerServer);
  if (!source.ok) throw new Error(`cannot start learner-server: ${source.reason}`);
  return encodeLearnerServerJob({ ...options.value, source: source.value });
}

/** Reads the tap through the terminal; resolves once the tap reports the server running. */
async function startedWire(tapProcess: WebContainerProcessLike, spec: ProgramSpec, spawnTimeoutMs: number, makeWire: (kind: 'webcontainer', channel: LineChannel) => Wire): Promise<Wire> {
  const channel = processLineChannel(tapProcess);
  // Created before waiting, so the spawn event lands in the wire's replay for its first listener.
  const wire = makeWire('webcontainer', channel);
  try {
    await withTimeout(channel.spawned, spawnTimeoutMs);
  } catch (error) {
    channel.close();
    const detail = error instanceof TimeoutError ? `the tap did not report it running within ${spawnTimeoutMs} ms` : messageOf(error);
    throw new Error(`could not start ${spec.program} in the WebContainer: ${detail}`);
  }
  return wire;
}

interface ProcessLineChannel extends LineChannel {
  /** Settles with the tap's first word: a spawn event, or an error / the end before one. */
  readonly spawned: Promise<void>;
}

function processLineChannel(tapProcess: WebContainerProcessLike): ProcessLineChannel {
  const lines = new ListenerSet<string>();
  const closes = new ListenerSet<string>();
  const splitter = new PtyLineSplitter();
  const writer = tapProcess.input.getWriter();
  let closedByUs = false;
  let settleSpawn: { resolve(): void; reject(error: Error): void } | null = null;
  const spawned = new Promise<void>((resolve, reject) => {
    settleSpawn = { resolve, reject };
  });
  spawned.catch(() => {}); // observed by startedWire; never an unhandled rejection

  function deliver(event: TapEvent): void {
    if (event.ev === 'spawn') settleSpawn?.resolve();
    if (event.ev === 'error') settleSpawn?.reject(new Error(event.message));
    if (event.ev === 'spawn' || event.ev === 'error') settleSpawn = null;
    if (closedByUs) return;
    // Re-encoded as a clean line: the wire parses every channel the same way.
    const line = encodeTapEvent(event);
    lines.emit(line);
  }

  async function pump(): Promise<void> {
    let failure = '';
    const reader = tapProcess.output.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const event of splitter.push(value)) deliver(event);
      }
    } catch (error) {
      failure = `reading the terminal failed: ${messageOf(error)}`;
    }
    for (const event of splitter.flush()) deliver(event);
    const code = await Promise.race([tapProcess.exit, delay(EXIT_WAIT_MS).then(() => null)]).catch(() => null);
    const noise = splitter.recentNoise();
    const reason = [
      failure || `the tap process in the WebContainer ended${code === null ? '' : ` with code ${code}`}`,
      noise.length > 0 ? `last output: ${noise[noise.length - 1]}` : '',
    ]
      .filter((part) => part !== '')
      .join('; ');
    settleSpawn?.reject(new Error(reason));
    settleSpawn = null;
    if (closedByUs) return;
    closes.emit(reason);
  }
  void pump();

  return {
    spawned,
    send(line) {
      if (closedByUs) return;
      // The tap reads lines; `\n` alone, because a terminal may turn a typed `\r\n` into two lines.
      writer.write(`${line}\n`).catch(() => {
        // The process is gone; the pump reports the end.
      });
    },
    close() {
      if (closedByUs) return;
      closedByUs = true;
      // The tap exits by itself right after its exit event; only one that lingers (stuck, or
      // never started properly) is killed.
      const timer = setTimeout(() => tapProcess.kill(), EXIT_WAIT_MS);
      tapProcess.exit.then(
        () => clearTimeout(timer),
        () => clearTimeout(timer),
      );
    },
    onLine: lines.add,
    onClose: closes.add,
  };
}

async function loadMountTree(fetchProgram: (name: WebContainerFileName) => Promise<string>): Promise<MountTree> {
  const tree: MountTree = {};
  await Promise.all(
    WEBCONTAINER_FILES.map(async (name) => {
      tree[`${name}.mjs`] = { file: { contents: await fetchProgram(name) } };
    }),
  );
  return tree;
}

async function fetchGeneratedProgram(name: WebContainerFileName): Promise<string> {
  const url = `${import.meta.env?.BASE_URL ?? '/'}generated/${name}.mjs`;
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`${url} answered ${response.status} (build it with: npx tsx scripts/build-node-programs.ts)`);
  }
  return response.text();
}

async function bootRealWebContainer(coep: 'require-corp' | 'credentialless'): Promise<WebContainerLike> {
  // Loaded on demand: the API is only needed when this host is tried, not in the first bundle.
  const { WebContainer } = await import('@webcontainer/api');
  return WebContainer.boot({ coep, workdirName: 'mcp-playground' });
}

export const NOT_ISOLATED_REASON =
  'this page is not cross-origin isolated, which WebContainers need: it must be served with the headers ' +
  '"Cross-Origin-Opener-Policy: same-origin" and "Cross-Origin-Embedder-Policy: require-corp" (or "credentialless")';

export const NO_SHARED_ARRAY_BUFFER_REASON =
  'this browser has no SharedArrayBuffer, which WebContainers need (it needs cross-origin isolation and a recent browser)';

/** The boot timeout as the panel says it: seconds, one decimal at most (6000 → 6, 300 → 0.3). */
export function bootTimeoutSeconds(timeoutMs: number): number {
  return Math.round(timeoutMs / 100) / 10;
}

export function bootTimeoutReason(timeoutMs: number): string {
  return (
    `WebContainer did not boot within ${bootTimeoutSeconds(timeoutMs)} s. Its runtime loads from StackBlitz's servers, ` +
    'so one of these is likely: this computer is offline; the browser blocks third-party cookies or storage ' +
    '(tracking protection) for StackBlitz; or this browser does not support WebContainers'
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
