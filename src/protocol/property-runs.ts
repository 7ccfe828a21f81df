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

/** The tag that marks a test running a property (defined in vitest.config.ts for the CLI too). */
export const PROPERTY_TAG = 'property';

/**
 * A property test's options, as Vitest reads them (`it(title, PROPERTY_TEST, fn)`): its time limit,
 * and the tag by which the page runs every example test of a spec first and reports them, then the
 * properties (test-executor.ts): a learner sees the examples' verdict while the properties, which
 * take most of a run, are still being checked.
 */
export const PROPERTY_TEST: { tags: string[]; timeout: number } = { tags: [PROPERTY_TAG], timeout: PROPERTY_TEST_TIMEOUT_MS };

/** Runs between two turns of the event loop. */
export const PROPERTY_YIELD_EVERY = 10;

// Captured at load: a spec that installs fake timers must not stop the yield from ever resolving.
const realSetTimeout = globalThis.setTimeout;
// The slice of MessageChannel used here (a browser's and Node's global one both have it; this
// layer is typed without the DOM).
interface PortPair {
  port1: { onmessage: ((event: unknown) => void) | null; close(): void };
  port2: { postMessage(message: unknown): void };
}
const RealMessageChannel = (globalThis as unknown as { MessageChannel?: new () => PortPair }).MessageChannel;

/**
 * One macrotask. A message on a fresh channel, not setTimeout(0): browsers clamp nested timeouts
 * to 4 ms, which made every property of a page run wait 40 ms per hundred cases (Run → results
 * went from ~50 to ~240 ms in `npm run bench`). A message task is not clamped and still lets a
 * due timer (the heartbeat) run before the next cases.
 */
export function macrotask(): Promise<void> {
  if (RealMessageChannel === undefined) return new Promise<void>((resolve) => void realSetTimeout(resolve, 0));
  return new Promise<void>((resolve) => {
    const channel = new RealMessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * A pace-keeper for one property: call it at the start of every run (`await pace()`); every
 * `every`-th call waits for a macrotask, which lets the worker's heartbeat (a timer) fire.
 */
export function propertyPacer(every: number = PROPERTY_YIELD_EVERY): () => Promise<void> {
  let runs = 0;
  return () => {
    runs += 1;
    return runs % every === 0 ? macrotask() : Promise.resolve();
  };
}
