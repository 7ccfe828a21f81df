// Which host runs the live server: WebContainer when it boots in time (real Node, nothing to
// install), else the local bridge when `npm start` serves the page, else the in-browser worker
// (always there, but only our own echo server). `?host=` forces one, for workshops and tests.
// Every host that is not used gets a reason, so the page can always say why it runs where it does.
// When the browser knows it is offline, the WebContainer (whose runtime loads from StackBlitz) is
// not even tried: its boot would never settle, and the learner would watch a 6 s timeout for nothing.
// Nor is it tried before the learner chooses it (`webContainerChosen`): its boot loads a runtime
// from StackBlitz's servers, and a page load must not contact a third party nobody asked for.

import { createBridgeHost } from './bridge-host.ts';
import { HOST_KINDS, type Host, type HostAvailability, type HostKind } from './host.ts';
import { createWebContainerHost } from './webcontainer-host.ts';
import { createWorkerHost } from './worker-host.ts';

export interface HostEntry {
  probe(): Promise<HostAvailability>;
  host: Host;
}

export type HostEntries = Record<HostKind, HostEntry>;

export interface HostSelection {
  chosen: Host | null;
  /** One entry per host, in preference order; every host that was not chosen has a reason. */
  availability: HostAvailability[];
}

export interface SelectHostOptions {
  forced?: HostKind | null;
  hosts: HostEntries;
  /** Default: `navigator.onLine === false`. Only a definite "offline" counts; unknown is online. */
  isOffline?: () => boolean;
  /**
   * Whether the learner chose the WebContainer (a button, `?host=webcontainer`); while false it is
   * skipped unprobed, so nothing is fetched from StackBlitz. Default: chosen (tests of the order).
   */
  webContainerChosen?: () => boolean;
}

export const WEBCONTAINER_NOT_CHOSEN_REASON =
  "not tried: it loads its runtime from StackBlitz's servers, so it is tried only when you choose it";

export const OFFLINE_WEBCONTAINER_REASON =
  "offline: WebContainer needs StackBlitz's servers to start, and this browser has no network connection";

/** The browser's own word: `navigator.onLine` is false only when it knows there is no network. */
export function browserIsOffline(): boolean {
  return (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false;
}

/** The WebContainer's row when it is skipped unprobed: offline, or not chosen yet. */
export function skippedWebContainer(offline: boolean): HostAvailability {
  return offline
    ? { kind: 'webcontainer', status: 'unavailable', reason: OFFLINE_WEBCONTAINER_REASON, why: { code: 'offline' } }
    : { kind: 'webcontainer', status: 'unavailable', reason: WEBCONTAINER_NOT_CHOSEN_REASON, why: { code: 'not-chosen' } };
}

/**
 * The rows again after the browser's word on the network changed (its `online`/`offline` events,
 * or a change while the probes ran): a WebContainer row that was skipped unprobed follows it, so
 * the panel never says "tried only when you choose it" to a browser that knows it is offline. A
 * row that came from a probe stays as it is until the next probe.
 */
export function withConnectivity(availability: readonly HostAvailability[], offline: boolean): HostAvailability[] {
  return availability.map((row) =>
    row.kind === 'webcontainer' && row.status === 'unavailable' && (row.why?.code === 'offline' || row.why?.code === 'not-chosen') ? skippedWebContainer(offline) : row,
  );
}

/** Probe in preference order and stop at the first that works: a later probe would only cost time. */
export async function selectHost(options: SelectHostOptions): Promise<HostSelection> {
  const forced = options.forced ?? null;
  const offline = (options.isOffline ?? browserIsOffline)();
  const webContainerChosen = forced === 'webcontainer' || (options.webContainerChosen?.() ?? true);
  const found = new Map<HostKind, HostAvailability>();
  let chosen: HostKind | null = null;
  for (const kind of forced ? [forced] : HOST_KINDS) {
    const availability: HostAvailability =
      kind === 'webcontainer' && (offline || !webContainerChosen) ? skippedWebContainer(offline) : await probeSafely(kind, options.hosts[kind]);
    found.set(kind, availability);
    if (availability.status === 'available') {
      chosen = kind;
      break;
    }
  }
  const notTried = (kind: HostKind): HostAvailability =>
    forced
      ? { kind, status: 'unavailable', reason: `not tried: ?host=${forced} forces ${forced}`, why: { code: 'not-tried-forced', forced } }
      : // Only reached when one was chosen: with none, every host was probed.
        { kind, status: 'unavailable', reason: `not tried: ${chosen} is available and comes first`, why: { code: 'not-tried-chosen', chosen: chosen as HostKind } };
  return {
    chosen: chosen === null ? null : options.hosts[chosen].host,
    availability: HOST_KINDS.map((kind) => found.get(kind) ?? notTried(kind)),
  };
}

async function probeSafely(kind: HostKind, entry: HostEntry): Promise<HostAvailability> {
  try {
    const availability = await entry.probe();
    // Trust the status, not the kind: a probe wired to the wrong slot must not mislabel the panel.
    if (availability.status === 'available') return { kind, status: 'available' };
    return { kind, status: 'unavailable', reason: availability.reason, ...(availability.why ? { why: availability.why } : {}) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { kind, status: 'unavailable', reason: `the ${kind} check failed: ${detail}`, why: { code: 'check-failed', host: kind, detail } };
  }
}

export type ForcedHost = { ok: true; forced: HostKind | null } | { ok: false; reason: string };

/** Reads `?host=webcontainer|bridge|worker` from a query string (`location.search`). */
export function parseForcedHost(search: string): ForcedHost {
  const value = new URLSearchParams(search).get('host');
  if (value === null || value.trim() === '') return { ok: true, forced: null };
  const kind = HOST_KINDS.find((known) => known === value.trim().toLowerCase());
  if (kind) return { ok: true, forced: kind };
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return {
    ok: false,
    reason: `?host=${shown} is not a host this page knows; use ${HOST_KINDS.map((known) => `?host=${known}`).join(', ')}, or leave it out to pick automatically`,
  };
}

/** The real hosts, each created once per call; probing one does not start the others. */
export function createDefaultHosts(): HostEntries {
  const webcontainer = createWebContainerHost();
  const bridge = createBridgeHost();
  const worker = createWorkerHost();
  return {
    webcontainer: { probe: () => webcontainer.probe(), host: webcontainer },
    bridge: { probe: () => bridge.probe(), host: bridge },
    worker: { probe: () => worker.probe(), host: worker },
  };
}
