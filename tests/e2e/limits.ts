// The one place an end-to-end wait gets its limit. Every wait in tests/e2e waits on a condition
// that is certain to come when the app works (a step shown, a result printed); its limit only
// says how long to keep waiting before calling it broken. The numbers written in the tests are
// what a quiet two-core machine needs with room to spare; limit() multiplies them by a margin of
// three and by how slow the machine is right now (tests/e2e/calibrate.ts, measured once at global
// setup, capped at 4), so a machine three times slower, or one busy with other work, still passes.
// MCP_E2E_SLOW_FACTOR sets the whole multiplier by hand (e.g. 20 under a debugger).

import { inject } from 'vitest';

const MARGIN = 3;
const MAX_SLOWNESS = 4;

declare module 'vitest' {
  export interface ProvidedContext {
    /** How many times slower than the quiet reference the machine was at global setup. */
    machineSlowness: number;
  }
}

/** The multiplier every wait gets: the margin times the machine's measured slowness. */
export function slowFactor(): number {
  const byHand = Number(process.env.MCP_E2E_SLOW_FACTOR);
  if (Number.isFinite(byHand) && byHand > 0) return byHand;
  const slowness = inject('machineSlowness') ?? 1;
  return MARGIN * Math.min(MAX_SLOWNESS, Math.max(1, slowness));
}

/** A wait's limit: what a quiet machine needs (`quietMs`), scaled for this one. */
export function limit(quietMs: number): number {
  return Math.round(quietMs * slowFactor());
}

/**
 * The WebContainer boot limit for a page where it cannot boot (StackBlitz is unreachable here):
 * the page gives up and says why exactly as after the product's 6 s, only sooner
 * (src/sandbox/page-limits.ts). Long enough that a wait set up after a click still sees the
 * "looking for a host" state it shows meanwhile.
 */
export const UNBOOTABLE_WEBCONTAINER_MS = 2000;
