// The Vitest config of `npm run exercise -- check`: runs one exercise's spec against one file.
// '@learner' is the file named by EXERCISE_LEARNER_FILE (the CLI sets it), else the starter;
// '@protocol/<path>' is src/protocol/<path>.

import { defineConfig } from 'vitest/config';
import { exerciseModulesPlugin } from './tools/exercise-modules-plugin.ts';
import { PROPERTY_TAGS } from './tools/vitest-tags.ts';

export default defineConfig({
  plugins: [exerciseModulesPlugin({ learner: 'starter' })],
  test: {
    include: ['exercises/*/spec.ts', 'tests/exercise-engine/fixtures/exercises/*/spec.ts'],
    environment: 'node',
    // Longer than the page's 1000 ms (src/sandbox/test-executor.ts), which only ever stops a test
    // that waits: Vitest also fails a *synchronous* test that ran past its timeout (checked once it
    // returns), which the page's engine never does, and with a tenth of a core a trivial test of
    // exercise 1 took over a second of wall time (tests/exercise-engine/slow-machine.test.ts). A
    // promise that never settles is still reported, after 10 s; the specs' own waits are shorter.
    testTimeout: 10_000,
    hookTimeout: 10_000,
    watch: false,
    tags: PROPERTY_TAGS,
  },
});
