// The messages between the page and the learner-code sandbox frame (sandbox/frame-*.html, a
// document whose own CSP says `sandbox allow-scripts`, no allow-same-origin: an opaque origin). The frame's
// bootstrap (sandbox-frame.ts) is plain JavaScript in a string, so these names are its contract.
//
//   page ──window.postMessage(HELLO, [control port])──▶ frame          once, after the frame loads
//   page ──control port: define / start (+ worker port) / terminate──▶ frame
//   frame ──control port: ready / error──▶ page
//   frame ──worker.postMessage(PORT, [worker port])──▶ blob: worker    once, at start
//   page ◀──worker port (a MessageChannel): every message of the run──▶ worker
//
// The worker's port is the ONLY path between learner code and the page: the frame relays nothing.

/** The first message to the frame's window, carrying the control port. */
export const SANDBOX_HELLO = 'mcp-sandbox-hello';
/** The first message to a sandboxed worker, carrying its port to the page. */
export const SANDBOX_PORT = 'mcp-sandbox-port';

export type PageToFrame =
  /** Remember a worker bundle's text under `key` (its URL); sent once per key. */
  | { type: 'define'; key: string; source: string }
  /** Start a classic blob: worker from a defined bundle; its port to the page travels with it. */
  | { type: 'start'; id: number; key: string; name: string }
  | { type: 'terminate'; id: number };

/** `ready` names the frame's origin, which must be opaque ('null') or the page will not use it. */
export type FrameToPage = { type: 'ready'; origin: string } | { type: 'not-isolated' } | { type: 'error'; id: number; message: string };

export function isFrameToPage(data: unknown): data is FrameToPage {
  if (typeof data !== 'object' || data === null) return false;
  const message = data as { type?: unknown; id?: unknown; message?: unknown; origin?: unknown };
  return (message.type === 'ready' && typeof message.origin === 'string') || message.type === 'not-isolated' || (message.type === 'error' && typeof message.id === 'number' && typeof message.message === 'string');
}
