import { defineConfig } from 'vitest/config';
import { exerciseModulesPlugin } from './tools/exercise-modules-plugin.ts';

export default defineConfig({
  // Resolves '@learner' in exercises/*/spec.ts to the exercise's reference solution and
  // '@protocol/*' to src/protocol, so every spec runs against the code the app runs.
  plugins: [exerciseModulesPlugin({ learner: 'solution' })],
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'server/**/*.test.ts', 'tests/**/*.test.ts', 'exercises/*/spec.ts'],
    environment: 'node',
    // Builds the dependency-free echo server, tap and SDK server into public/generated once.
    globalSetup: ['tests/global-setup.ts'],
    testTimeout: 20_000,
  },
});
