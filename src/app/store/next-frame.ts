// When a burst of changes is told to the page: at its next frame, so React renders once per frame
// however many changes came in it. A page that is not shown gets no animation frames, so a timer
// stands in after FRAME_FALLBACK_MS; where there are no frames at all (Node), the timer alone.

/** Cancels what nextFrame scheduled. */
export type Cancel = () => void;

/** A hidden page's longest wait (browsers throttle its timers further anyway). */
export const FRAME_FALLBACK_MS = 100;

export function nextFrame(callback: () => void): Cancel {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    cancel();
    callback();
  };
  const timer = setTimeout(run, typeof requestAnimationFrame === 'function' ? FRAME_FALLBACK_MS : 16);
  const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(run) : null;
  function cancel(): void {
    done = true;
    clearTimeout(timer);
    if (frame !== null) cancelAnimationFrame(frame);
  }
  return cancel;
}
