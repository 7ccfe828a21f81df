// Full screen on and off with the Fullscreen API. Browsers refuse it without a user gesture, inside
// some iframes, or by policy: the caller gets the reason and shows the browser's own key instead.

export type FullscreenOutcome = { ok: true; on: boolean } | { ok: false; reason: 'unavailable' } | { ok: false; reason: 'refused'; detail: string };

/** The part of Document used, so the logic is testable without a browser. */
export interface FullscreenDocument {
  readonly fullscreenEnabled?: boolean;
  readonly fullscreenElement: Element | null;
  exitFullscreen(): Promise<void>;
  readonly documentElement: { requestFullscreen?: (options?: FullscreenOptions) => Promise<void> };
}

export async function toggleFullscreen(doc: FullscreenDocument): Promise<FullscreenOutcome> {
  try {
    if (doc.fullscreenElement) {
      await doc.exitFullscreen();
      return { ok: true, on: false };
    }
    const request = doc.documentElement.requestFullscreen;
    if (!doc.fullscreenEnabled || typeof request !== 'function') return { ok: false, reason: 'unavailable' };
    await request.call(doc.documentElement, { navigationUI: 'hide' });
    return { ok: true, on: true };
  } catch (error) {
    return { ok: false, reason: 'refused', detail: error instanceof Error ? error.message || error.name : String(error) };
  }
}
