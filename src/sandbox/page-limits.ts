// Two product timers a test would otherwise wait out in full: how long the WebContainer may take to
// boot before the page calls it unavailable (6 s), and how long the learner-code sandbox frame may
// take to start before the page says it cannot run code (15 s). In the end-to-end tests the
// WebContainer never boots (StackBlitz is unreachable) and a blocked frame never starts, so any
// limit gives the same outcome; those tests set a short one instead of waiting (issue 28: "give the
// product a test knob"). They set it with an init script (tests/e2e/browser.ts, `limits`), which
// runs in the page before the page's own scripts: nothing a link, the page's storage or learner
// code can reach (learner code runs on another origin), and a page without it keeps the defaults.

export interface PageLimits {
  webContainerBootMs?: number;
  sandboxFrameStartMs?: number;
}

/** The global an init script sets to shorten the limits above, read when each timer starts. */
export const PAGE_LIMITS_GLOBAL = '__MCP_PLAYGROUND_LIMITS__';

/** The named limit if a test set a usable one (a positive, finite number), else `fallback`. */
export function pageLimit(name: keyof PageLimits, fallback: number): number {
  const limits: unknown = (globalThis as Record<string, unknown>)[PAGE_LIMITS_GLOBAL];
  if (typeof limits !== 'object' || limits === null) return fallback;
  const value: unknown = (limits as Record<string, unknown>)[name];
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
}
