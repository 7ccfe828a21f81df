// The page's side of the learner-code sandbox frame: one out-of-sight iframe per page, on a document that
// sandboxes itself to an opaque origin (CSP `sandbox allow-scripts`), and the control port to it.
// Its status (loading, ready, unavailable) is observable so the app can say when it cannot load.

import { pageLimit } from './page-limits.ts';
import { isFrameToPage, SANDBOX_HELLO, type PageToFrame } from './sandbox-protocol.ts';

export type SandboxStatus = 'idle' | 'loading' | 'ready' | 'unavailable';

/** How long the frame may take to load and answer before the page says it cannot run code (less
 * than the runners' own 20 s start limit, so their error names this reason). */
const FRAME_START_LIMIT_MS = 15_000;

export interface SandboxFrame {
  send(message: PageToFrame, transfer?: Transferable[]): void;
  /** Bundles already posted into the frame, by key. */
  readonly defined: Set<string>;
  onWorkerError(id: number, listener: (message: string) => void): void;
  forget(id: number): void;
}

let frame: Promise<SandboxFrame> | undefined;
let status: SandboxStatus = 'idle';
const statusListeners = new Set<() => void>();

function setStatus(next: SandboxStatus): void {
  status = next;
  for (const listener of [...statusListeners]) listener();
}

export function getSandboxStatus(): SandboxStatus {
  return status;
}

export function subscribeSandboxStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

/** The frame, created on first use; rejects (and the status says so) when it cannot load. */
export function sandboxFrame(url: string): Promise<SandboxFrame> {
  // Later calls get the same promise and leave the status alone: a frame that already failed stays
  // 'unavailable' (a Run after the failure once set it back to 'loading', and the notice went away).
  if (frame) return frame;
  setStatus('loading');
  // A host that cannot send the frame's CSP (GitHub Pages): the document says it is not isolated,
  // and opens again in an iframe with the sandbox attribute, opaque the other way (offline it then
  // depends on the HTTP cache).
  frame = openFrame(url, false)
    .catch((error: unknown) => {
      if (error instanceof NotIsolated) return openFrame(url, true);
      throw error;
    })
    .then(
    (opened) => {
      setStatus('ready');
      return opened;
    },
    (error: unknown) => {
      setStatus('unavailable');
      throw error;
    },
  );
  return frame;
}

class NotIsolated extends Error {}

function openFrame(url: string, sandboxAttribute: boolean): Promise<SandboxFrame> {
  return new Promise((resolve, reject) => {
    const iframe = document.createElement('iframe');
    if (sandboxAttribute) iframe.setAttribute('sandbox', 'allow-scripts');
    // The document sandboxes itself: its response's CSP says `sandbox allow-scripts` (no
    // allow-same-origin), so it and every worker it starts get an opaque origin: no cookies,
    // storage, CacheStorage, IndexedDB, service worker or same-origin request of the playground.
    // Not the iframe's sandbox attribute: a navigation from a sandboxed iframe never reaches the
    // service worker, and the HTTP cache does not answer it offline on a reload (measured in
    // Chromium: net::ERR_INTERNET_DISCONNECTED), so learner code could not run offline. Served by the
    // precache instead, the response keeps its headers, CSP included. Both the bootstrap and the
    // check below refuse a frame whose origin is not opaque; only then the attribute is used.
    iframe.title = 'learner code sandbox';
    // Out of sight but not hidden: Chromium runs a `display: none` frame's process (and the workers
    // it starts, which run every test) at background priority, with its timers throttled. Measured
    // in `npm run bench` (exercise 2, Chromium without automation flags): ~135–155 ms per Run with
    // the frame hidden, ~85–100 ms with it laid out as a 1 px transparent box. The styles are set
    // through the CSSOM, which the page's CSP allows (it forbids style attributes in markup).
    Object.assign(iframe.style, { position: 'fixed', left: '0', top: '0', width: '1px', height: '1px', border: '0', opacity: '0', pointerEvents: 'none' });
    iframe.setAttribute('aria-hidden', 'true');
    iframe.tabIndex = -1;
    iframe.dataset.testid = 'learner-sandbox-frame';
    const channel = new MessageChannel();
    const errorListeners = new Map<number, (message: string) => void>();
    const timer = setTimeout(() => reject(new Error('the sandbox that runs learner code did not load')), pageLimit('sandboxFrameStartMs', FRAME_START_LIMIT_MS));
    channel.port1.onmessage = (event: MessageEvent) => {
      const message: unknown = event.data;
      if (!isFrameToPage(message)) return;
      if (message.type === 'not-isolated' || (message.type === 'ready' && message.origin !== 'null')) {
        clearTimeout(timer);
        iframe.remove();
        reject(sandboxAttribute ? new Error('the sandbox that runs learner code is not isolated') : new NotIsolated('not isolated'));
      } else if (message.type === 'ready') {
        clearTimeout(timer);
        resolve({
          send: (outgoing, transfer = []) => channel.port1.postMessage(outgoing, transfer),
          defined: new Set(),
          onWorkerError: (id, listener) => errorListeners.set(id, listener),
          forget: (id) => errorListeners.delete(id),
        });
      } else {
        errorListeners.get(message.id)?.(message.message);
      }
    };
    iframe.addEventListener('load', () => {
      // The frame's origin is opaque, so no target origin can name it: '*' is the only one that
      // reaches it, and the message holds nothing but the port the frame answers on.
      iframe.contentWindow?.postMessage({ type: SANDBOX_HELLO }, '*', [channel.port2]);
    }, { once: true });
    iframe.src = url;
    document.body.append(iframe);
  });
}
