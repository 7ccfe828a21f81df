import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'server/**/*.test.ts', 'tests/**/*.test.ts'],
    environment: 'node',
    // Builds the dependency-free echo server, tap and SDK server into public/generated once.
    globalSetup: ['tests/global-setup.ts'],
    testTimeout: 20_000,
  },
});
