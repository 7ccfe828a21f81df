// Whether the live log should follow its newest row: the reader is still where the last
// follow-scroll left them. Measured against the bottom as it was then, not as it is now: by the
// next frame new rows (or rows measured taller than the estimate) have moved the bottom, and a
// reader who did not scroll would otherwise read as one who left it. Rows measured shorter than
// the estimate move the bottom up instead, and the browser pulls the reader up with it: a bottom
// that shrank is measured as it is now.

/** Within this many pixels of that bottom counts as still there. */
export const FOLLOW_SLACK_PX = 40;

export interface ListPosition {
  scrollTop: number;
  clientHeight: number;
  scrollHeight: number;
}

/** `lastBottom`: the list's scrollHeight when it last scrolled itself to the end; null before that. */
export function stillAtBottom(list: ListPosition, lastBottom: number | null): boolean {
  return lastBottom === null || list.scrollTop + list.clientHeight >= Math.min(lastBottom, list.scrollHeight) - FOLLOW_SLACK_PX;
}
