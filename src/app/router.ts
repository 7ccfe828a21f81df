// Which view of the page is showing, from the address's hash: `#protocol…` is the protocol view,
// `#chapter-loop…` the Chapter loop (`#agent…`, its first address, still opens it), `#preflight`
// the workshop preflight checks, `#room` (and `#join…`) the workshop room, `#trace` (and `#trace=<data>`) the trace view, anything else (`#workspace`, `#live-panel`, none) the study view.
// The hash is the only state, so the back button, reloads and shared links all land on the same view.

import { isProtocolHash } from './protocol/step-link.ts';

export type AppView = 'study' | 'protocol' | 'chapter-loop' | 'preflight' | 'trace' | 'room';

export const PREFLIGHT_HASH = '#preflight';

/** The trace view; `#trace=<data>` opens the trace the link carries (src/app/trace/trace-link.ts). */
export const TRACE_HASH = '#trace';

export function isTraceViewHash(hash: string): boolean {
  return hash === TRACE_HASH || hash.startsWith(`${TRACE_HASH}=`);
}

/**
 * The workshop room: the class's grid on the instructor's machine, the join form (and then the
 * attendee's own standing) on an attendee's. `#join` and `#join=CODE` (the QR code's address,
 * which fills the code in) open it too.
 */
export const ROOM_HASH = '#room';
export const JOIN_HASH = '#join';

export function isRoomHash(hash: string): boolean {
  return hash === ROOM_HASH || hash === JOIN_HASH || hash.startsWith(`${JOIN_HASH}=`);
}

/** The join code a `#join=CODE` address carries, as written (the form checks it). */
export function joinCodeOfHash(hash: string): string {
  return hash.startsWith(`${JOIN_HASH}=`) ? decodeURIComponent(hash.slice(JOIN_HASH.length + 1)).slice(0, 16) : '';
}

export const CHAPTER_LOOP_HASH = '#chapter-loop';

/** The Chapter loop opened on Check my server (exercise 4's live scene, at the bottom of the view). */
export const CHECK_SERVER_HASH = `${CHAPTER_LOOP_HASH}/check-server`;

/** The Chapter loop at its top with the learner's registerMcpTools chosen (exercise 5's live scene). */
export const CHAPTER_LOOP_YOURS_HASH = `${CHAPTER_LOOP_HASH}/yours`;

/** The Chapter loop's first address: links written before it was renamed keep working. */
export const CHAPTER_LOOP_HASH_ALIAS = '#agent';

export function isChapterLoopHash(hash: string): boolean {
  return [CHAPTER_LOOP_HASH, CHAPTER_LOOP_HASH_ALIAS].some((prefix) => hash === prefix || hash.startsWith(`${prefix}/`));
}

export function viewOfHash(hash: string): AppView {
  if (isProtocolHash(hash)) return 'protocol';
  if (hash === PREFLIGHT_HASH) return 'preflight';
  if (isTraceViewHash(hash)) return 'trace';
  if (isRoomHash(hash)) return 'room';
  return isChapterLoopHash(hash) ? 'chapter-loop' : 'study';
}
