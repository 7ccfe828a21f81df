// Focus for a hint opened by a button (the hints' own, or a failing test's "Hint"): the store
// renders the hint a moment after the click, so the request waits until the hint is on the page.
// A file of its own: the results list asks for it, the hints section completes it.

/** Element ids of opened hints: `hint-<index in the hint file>`. */
export const HINT_ID_PREFIX = 'hint-';

let pendingFocus: number | null = null;

/** Moves focus to hint `index`: now if it is shown, else as soon as the hints section shows it. */
export function showHint(index: number): void {
  const item = document.getElementById(HINT_ID_PREFIX + index);
  if (!item) {
    pendingFocus = index;
    return;
  }
  pendingFocus = null;
  item.focus({ preventScroll: true });
  item.scrollIntoView({ block: 'nearest' });
}

/** Called by the hints section after it rendered `shown`: completes a focus request that was waiting for one of them. */
export function focusPendingHint(shown: readonly number[]): void {
  if (pendingFocus !== null && shown.includes(pendingFocus)) showHint(pendingFocus);
}
