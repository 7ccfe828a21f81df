import { availableParallelism } from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { LongFirstSequencer } from './tests/sequencer.ts';
import { exerciseModulesPlugin } from './tools/exercise-modules-plugin.ts';
import { PROPERTY_TAGS } from './tools/vitest-tags.ts';

// Three projects, one command: `npm test` runs them all (the type check is a file of the integration
// project, tests/architecture/typecheck.test.ts, run beside the others); each also runs on
// its own (`npm run test:unit`, `test:integration`, `test:e2e`, or `vitest run --project NAME`).
//
//   unit         the tests next to the code (src/, server/, tools/), the exercise specs against the
//                reference solutions, the i18n completeness check. The inner loop: under a minute.
//   integration  real processes, sockets and the CLI, the mutants, the dependency rules, the security probe, the
//                official MCP conformance suite (under Node 24): every folder of tests/ but e2e,
//                performance and i18n.
//   e2e          real Chromium against ONE production build and ONE `npm start` server, both made
//                once in tests/e2e/global-setup.ts and handed to every file through inject(); the
//                files are independent (each connects to the one Chromium and opens its own contexts), so they run side by side.
//
// maxWorkers is per project; projects with different maxWorkers need their own sequence.groupOrder,
// so unit and integration (group 0) finish before the end-to-end files (group 1) start, and never
// compete with the browsers for the cores.
// The Node projects are CPU-bound, but several of their files mostly wait (the slow-machine file
// holds its worker for about two minutes while its throttled child uses a tenth of a core; others
// wait on child processes, sockets and signals' grace periods): two workers more than the cores keep
// them busy. Unit + integration on this 2-core machine, same hour: three workers 186 s (cores 71%
// busy), four 157 s (78%), five 160 s. MCP_NODE_WORKERS overrides it.
// End-to-end files drive the suite's one Chromium, one file per core. Measured on this 2-core
// machine: one file at a time left the cores idle 29% of the time (waits on the app, the servers,
// timers): 494 s; two at a time kept them 94% busy: 342 s, green. Three at once overloaded it (load
// 13–16, failed waits on a slow machine). MCP_E2E_WORKERS overrides it.
const NODE_WORKERS = Number(process.env.MCP_NODE_WORKERS ?? Math.max(1, availableParallelism()) + 2);
const E2E_WORKERS = Number(process.env.MCP_E2E_WORKERS ?? Math.max(1, availableParallelism()));
// Every e2e wait has its own scaled limit (tests/e2e/limits.ts); a test's timeout is only the
// backstop for a test that hangs, never what decides it.
const E2E_BACKSTOP_MS = 20 * 60_000;

// What every project shares. A function rather than `extends: true`: that would also copy the
// root's globalSetup into each project and build the Node programs once per project, concurrently.
// Each project gets its own plugin instance.
function project(test: TestProjectInlineConfiguration['test']): TestProjectInlineConfiguration {
  return {
    // Resolves '@learner' in exercises/*/spec.ts to the exercise's reference solution and
    // '@protocol/*' to src/protocol, so every spec runs against the code the app runs.
    plugins: [exerciseModulesPlugin({ learner: 'solution' })],
    // A backstop for a test that hangs, not a speed limit: a mutant's whole spec run took 22 s on
    // a loaded two-core machine, and a correct result must not fail for the machine's speed.
    // Files share their worker's module cache (isolate: false): no file here relies on a fresh
    // module graph (no vi.mock; state lives in what each test creates), and importing React,
    // Monaco's types, playwright and the protocol again for each of ~280 files was most of the unit
    // project's time (unit alone on this 2-core machine: 45 s, 64 core-s → 20 s, 22 core-s; the
    // three projects pass with their files in shuffled order too).
    test: { environment: 'node', testTimeout: 180_000, hookTimeout: 180_000, isolate: false, ...test },
  };
}

export default defineConfig({
  test: {
    // Runs once per `vitest run`, whichever projects run: builds the dependency-free echo server,
    // tap and SDK server into public/generated, so tests spawn exactly what a WebContainer runs.
    globalSetup: ['tests/global-setup.ts'],
    // The long end-to-end files first, even on a clean clone (see the file).
    sequence: { sequencer: LongFirstSequencer },
    // The tags tests may carry (Vitest refuses any other); every project inherits them.
    tags: PROPERTY_TAGS,
    projects: [
      project({
        name: 'unit',
        include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'server/**/*.test.ts', 'tools/**/*.test.ts', 'exercises/*/spec.ts', 'tests/i18n/**/*.test.ts'],
        maxWorkers: NODE_WORKERS,
        sequence: { groupOrder: 0 },
      }),
      project({
        name: 'integration',
        // Every other folder of tests/ (a new one lands here, never nowhere).
        include: ['tests/**/*.test.ts'],
        exclude: ['**/node_modules/**', '**/.git/**', 'tests/e2e/**', 'tests/performance/**', 'tests/i18n/**'],
        maxWorkers: NODE_WORKERS,
        sequence: { groupOrder: 0 },
      }),
      project({
        name: 'e2e',
        include: ['tests/e2e/**/*.test.ts', 'tests/performance/**/*.test.ts'],
        // Builds dist/ when it is missing or stale, then starts the one app server.
        globalSetup: ['tests/e2e/global-setup.ts'],
        maxWorkers: E2E_WORKERS,
        sequence: { groupOrder: 1 },
        testTimeout: E2E_BACKSTOP_MS,
        hookTimeout: E2E_BACKSTOP_MS,
      }),
    ],
  },
});
