// How slow this machine is right now, measured once in the e2e global setup (tests/e2e/limits.ts
// scales every wait by it). A fixed CPU workload — JSON round trips and SHA-256, what the app's
// own hot paths do — timed five times; the median against what it takes on a quiet two-core
// machine of this project's kind. A loaded or slow machine gets longer limits; nothing measured
// here decides a test, it only widens the time a condition that is certain to come may take.

import { createHash } from 'node:crypto';

/** The workload's median on a quiet two-core machine (measured there, in ms). */
const QUIET_MS = 80;

function workload(): number {
  const started = performance.now();
  const value = { rows: Array.from({ length: 2000 }, (_, i) => ({ i, text: 'x'.repeat(i % 50) })) };
  for (let round = 0; round < 60; round++) {
    const text = JSON.stringify(value);
    JSON.parse(text);
    createHash('sha256').update(text).digest('hex');
  }
  return performance.now() - started;
}

/** How many times slower than the quiet reference this machine is now (at least 1). */
export function measureSlowness(): number {
  const times = Array.from({ length: 5 }, workload).sort((a, b) => a - b);
  return Math.max(1, times[2]! / QUIET_MS);
}
