// The Vitest config of `npm run exercise -- check`: runs one exercise's spec against one file.
// '@learner' is the file named by EXERCISE_LEARNER_FILE (the CLI sets it), else the starter;
// '@protocol/<path>' is src/protocol/<path>.

import { defineConfig } from 'vitest/config';
import { exerciseModulesPlugin } from './tools/exercise-modules-plugin.ts';

export default defineConfig({
  plugins: [exerciseModulesPlugin({ learner: 'starter' })],
  test: {
    include: ['exercises/*/spec.ts', 'tests/exercise-engine/fixtures/exercises/*/spec.ts'],
    environment: 'node',
    // The same limit a test has in the browser (src/exercise/test-executor.ts).
    testTimeout: 1000,
    hookTimeout: 1000,
    watch: false,
  },
});
