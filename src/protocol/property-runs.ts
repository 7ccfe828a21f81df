// How the exercise specs run their property tests, the same in the page and under Vitest: a fixed
// number of runs (never a time budget, so a slow machine checks exactly what a fast one does), a
// per-test limit a machine ten times slower than a developer's still meets, and a turn of the event
// loop every few runs, so a long property never looks like a stuck worker to the page's 2 s silence
// rule (src/sandbox/heartbeat.ts). Specs import it as '@protocol/property-runs'.

/**
 * The time limit of a test that runs a property. The engine's default (1000 ms) is for tests that
 * wait on a promise; a hundred generated cases on a busy two-core laptop can take several seconds,
 * and exercise 6's forty HTTP sessions took 45 s with a tenth of a core
 * (tests/exercise-engine/slow-machine.test.ts). Only a backstop: the heartbeat keeps beating.
 */
export const PROPERTY_TEST_TIMEOUT_MS = 120_000;

/** Runs between two turns of the event loop. */
export const PROPERTY_YIELD_EVERY = 10;

// Captured at load: a spec that installs fake timers must not stop the yield from ever resolving.
const realSetTimeout = globalThis.setTimeout;

/**
 * A pace-keeper for one property: call it at the start of every run (`await pace()`); every
 * `every`-th call waits for a macrotask, which lets the worker's heartbeat (a timer) fire.
 */
export function propertyPacer(every: number = PROPERTY_YIELD_EVERY): () => Promise<void> {
  let runs = 0;
  return () => {
    runs += 1;
    return runs % every === 0 ? new Promise<void>((resolve) => void realSetTimeout(resolve, 0)) : Promise.resolve();
  };
}
