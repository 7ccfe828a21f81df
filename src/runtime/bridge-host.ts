// The local bridge host: `npm start` (or the Vite dev server) runs a small Node server that runs
// the server for us, watched by the tap's code in-process, and relays the tap lines over a
// WebSocket. One socket per started server:
//
//   page → bridge   {"type":"start","program":"echo-server","framing":"ndjson","faults":[]}
//   bridge → page   {"type":"started"}  or  {"type":"refused","reason":"..."}
//   then            tap event lines one way, one or more per text message ('\n' between them);
//                   tap command lines the other way, one per text message
//
// The bridge only accepts pages that carry its per-run token, which the page asks its own server
// for (GET /__bridge/token, bridge-token.ts) just before it opens a socket; a page from anywhere
// else gets no token and so no bridge.

import { BRIDGE_PATH, isLearnerCodeMode, parseBridgeReply, type BridgeStartMessage, type LearnerCodeMode } from './bridge-messages.ts';
import { isHttpProgram, type Host, type HostAvailability, type ProgramSpec, type Wire } from './host.ts';
import { createTapWire, tapLinesOf, type LineChannel } from './tap-wire.ts';
import { HostReasonError, reasonCodeOf } from './host-reason.ts';
import { ListenerSet } from './listener-set.ts';
import { fetchBridgeToken } from './bridge-token.ts';

/** Present (content "1") when the page was served by a shared bridge (`npm start --host`). */
export const BRIDGE_SHARED_META = 'mcp-bridge-shared';
/** Whether the bridge runs learner code (server/bridge-page.ts writes it next to the token). */
export const BRIDGE_LEARNER_CODE_META = 'mcp-bridge-learner-code';
export const DEFAULT_CONNECT_TIMEOUT_MS = 1500;
export const DEFAULT_START_TIMEOUT_MS = 10_000;
const OPEN = 1;

export const NO_BRIDGE_TOKEN_REASON =
  'this page was not served by `npm start` or the dev server, so there is no local bridge';
export const BRIDGE_LOST_REASON = 'connection to the bridge lost';

export interface BridgeHostDeps {
  /** Default: the browser's WebSocket. Node tests pass the `ws` package's. */
  WebSocketImpl?: typeof WebSocket;
  /** Default: ws(s)://<this page's host>/bridge. The token is added as `?token=`. */
  url?: string;
  /** Default: asked from this page's server before each connection (GET /__bridge/token). */
  token?: string;
  /** How the token is fetched when `token` is not given; tests pass their own. */
  fetchToken?: () => Promise<string | null>;
  connectTimeoutMs?: number;
  /** How long the bridge may take to answer a start message. */
  startTimeoutMs?: number;
  /** The `Origin` the HTTP wire's requests carry (mcp-http); default this page's origin. */
  pageOrigin?: string;
}

export interface BridgeHost extends Host {
  readonly kind: 'bridge';
  /** Opens a socket and closes it again: is a bridge there, and does it take our token? */
  probe(): Promise<HostAvailability>;
}

interface Endpoint {
  url: string;
  /** The url without the token, for messages people read (and may paste into a bug report). */
  shownUrl: string;
  Impl: typeof WebSocket;
}

export function createBridgeHost(deps: BridgeHostDeps = {}): BridgeHost {
  const connectTimeoutMs = deps.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const startTimeoutMs = deps.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;

  // Asked when needed, not at creation: the server may not be there yet, or at all, and a token
  // held no longer than one connection needs it is a token nothing else in the page can find.
  async function endpoint(): Promise<Endpoint> {
    const token = deps.token ?? (await (deps.fetchToken ?? fetchBridgeToken)());
    if (!token) throw new HostReasonError(NO_BRIDGE_TOKEN_REASON, { code: 'no-bridge-token' });
    const shownUrl = deps.url ?? defaultBridgeUrl();
    if (!shownUrl) throw new HostReasonError('there is no page address to find the bridge at', { code: 'no-page-address' });
    const Impl = deps.WebSocketImpl ?? (globalThis.WebSocket as typeof WebSocket | undefined);
    if (!Impl) throw new HostReasonError('this browser has no WebSocket', { code: 'no-websocket' });
    const url = `${shownUrl}${shownUrl.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
    return { url, shownUrl, Impl };
  }

  return {
    kind: 'bridge',
    async probe() {
      try {
        const socket = await openSocket(await endpoint(), connectTimeoutMs);
        socket.close(1000, 'probe');
        return { kind: 'bridge', status: 'available' };
      } catch (error) {
        return { kind: 'bridge', status: 'unavailable', reason: messageOf(error), ...reasonCodeOf(error) };
      }
    },
    async start(spec) {
      const makeWire = await wireFactory(spec, deps.pageOrigin);
      const socket = await openSocket(await endpoint(), connectTimeoutMs);
      return startOnSocket(socket, spec, startTimeoutMs, makeWire);
    },
  };
}

type WireFactory = (kind: 'bridge', channel: LineChannel) => Wire;

/**
 * How the started program's wire is made: mcp-http speaks HTTP over relayed connections, loaded
 * only when first used (it stays out of the first paint); every other program is a tap wire.
 */
async function wireFactory(spec: ProgramSpec, origin: string | undefined): Promise<WireFactory> {
  if (!isHttpProgram(spec.program)) return (kind, channel) => createTapWire(kind, channel);
  const { createHttpTapWire } = await import('./http-tap-wire.ts');
  return (kind, channel) => createHttpTapWire(kind, channel, origin === undefined ? {} : { origin });
}

function openSocket(endpoint: Endpoint, timeoutMs: number): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    let socket: WebSocket;
    try {
      socket = new endpoint.Impl(endpoint.url);
    } catch (error) {
      const detail = messageOf(error);
      reject(new HostReasonError(`could not connect to the bridge at ${endpoint.shownUrl}: ${detail}`, { code: 'bridge-unreachable', url: endpoint.shownUrl, detail }));
      return;
    }
    let failure = '';
    const timer = setTimeout(() => {
      settle();
      socket.close();
      reject(new HostReasonError(`no answer from the bridge at ${endpoint.shownUrl} within ${timeoutMs} ms`, { code: 'bridge-silent', url: endpoint.shownUrl, ms: timeoutMs }));
    }, timeoutMs);
    const settle = (): void => {
      clearTimeout(timer);
      socket.onopen = socket.onclose = null;
      // Not null: closing a socket that is still connecting raises one more error event, and
      // Node's `ws` throws an error nobody listens for.
      socket.onerror = () => {};
    };
    socket.onopen = () => {
      settle();
      resolve(socket);
    };
    // Browsers hide why a connection failed; Node's `ws` says (e.g. "Unexpected server response: 403").
    socket.onerror = (event) => {
      const message = (event as { message?: unknown }).message;
      if (typeof message === 'string') failure = message;
    };
    socket.onclose = (event) => {
      settle();
      const detail = failure || `closed with code ${event.code}${event.reason ? `: ${event.reason}` : ''}`;
      reject(
        new HostReasonError(`could not connect to the bridge at ${endpoint.shownUrl} (${detail}); is \`npm start\` still running?`, {
          code: 'bridge-closed',
          url: endpoint.shownUrl,
          detail,
        }),
      );
    };
  });
}

function startOnSocket(socket: WebSocket, spec: ProgramSpec, startTimeoutMs: number, makeWire: WireFactory): Promise<Wire> {
  return new Promise((resolve, reject) => {
    const lines = new ListenerSet<string>();
    const closes = new ListenerSet<string>();
    let started = false;
    let closedByUs = false;

    const channel: LineChannel = {
      send(line) {
        if (socket.readyState === OPEN) socket.send(line);
      },
      close() {
        closedByUs = true;
        socket.close(1000, 'done');
      },
      onLine: lines.add,
      onClose: closes.add,
    };

    const timer = setTimeout(() => {
      closedByUs = true;
      socket.close();
      reject(new Error(`the bridge did not start ${spec.program} within ${startTimeoutMs} ms`));
    }, startTimeoutMs);

    socket.onmessage = (event: MessageEvent) => {
      if (typeof event.data !== 'string') return; // the bridge speaks text only
      if (started) {
        for (const line of tapLinesOf(event.data)) lines.emit(line);
        return;
      }
      const reply = parseBridgeReply(event.data);
      if (!reply) return;
      clearTimeout(timer);
      if (reply.type === 'refused') {
        closedByUs = true;
        socket.close(1000, 'refused');
        reject(new Error(reply.reason));
        return;
      }
      started = true;
      // Created here, synchronously, so the very next message already has a listener.
      resolve(makeWire('bridge', channel));
    };
    socket.onclose = (event: CloseEvent) => {
      clearTimeout(timer);
      const detail = `code ${event.code}${event.reason ? `: ${event.reason}` : ''}`;
      if (!started) {
        if (!closedByUs) reject(new Error(`${BRIDGE_LOST_REASON} before ${spec.program} started (${detail})`));
        return;
      }
      if (closedByUs) return;
      closes.emit(`${BRIDGE_LOST_REASON} (${detail})`);
    };
    socket.onerror = () => {
      // Always followed by a close event, which reports it.
    };

    const start: BridgeStartMessage = { type: 'start', program: spec.program, framing: spec.framing, faults: [...spec.faults] };
    if (spec.era !== undefined) start.era = spec.era;
    if (spec.tools !== undefined && spec.tools !== 'echo') start.tools = spec.tools;
    if (spec.auth !== undefined) start.auth = spec.auth;
    // The learner's source travels only for learner-server; the bridge refuses it anywhere else.
    if (spec.program === 'learner-server' && spec.learnerServer) {
      const { code, file, moduleId } = spec.learnerServer;
      start.learnerServer = moduleId === undefined ? { code, file } : { code, file, moduleId };
    }
    socket.send(JSON.stringify(start));
  });
}

/** Whether the page says its bridge is shared on a LAN (server/bridge-page.ts writes the tag). */
export function bridgeIsSharedFromPage(): boolean {
  if (typeof document === 'undefined') return false;
  return document.querySelector(`meta[name="${BRIDGE_SHARED_META}"]`)?.getAttribute('content') === '1';
}

/**
 * Whether this page's bridge runs learner code ('sandboxed'), and if not, why. A page without the
 * tag (an older server, a static host) gets the safe answer: the bridge does not run it.
 */
export function bridgeLearnerCodeFromPage(): LearnerCodeMode {
  if (bridgeIsSharedFromPage()) return 'shared-bridge';
  if (typeof document === 'undefined') return 'not-enabled';
  const content = document.querySelector(`meta[name="${BRIDGE_LEARNER_CODE_META}"]`)?.getAttribute('content');
  return isLearnerCodeMode(content) ? content : 'not-enabled';
}

function defaultBridgeUrl(): string | null {
  if (typeof location === 'undefined' || !location.host) return null;
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${BRIDGE_PATH}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
