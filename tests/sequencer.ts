// The order test files start in. Vitest runs the longest files first once it has timings from an
// earlier run (node_modules/.vite/vitest); on a clean clone it has none and starts the largest
// files first, which puts the two tiny protocol-view-<host>.test.ts files, the longest of all, at
// the very end, with the other workers idle. So the end-to-end files known to be long go first,
// in this order, on every run; everything else keeps Vitest's own order.

import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** End-to-end files, longest first (measured on two cores). */
const LONG_E2E_FILES = [
  'failure-lab-worker.test.ts',
  'protocol-view-worker.test.ts',
  'protocol-view-bridge.test.ts',
  'exercises.test.ts',
  'live-panel.test.ts',
  'offline.test.ts',
  'preflight.test.ts',
  'sdk-checks.test.ts',
  'portable-progress.test.ts',
  'agent-turn.test.ts',
  'host-fallback.test.ts',
];

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      if (spec.project.name !== 'e2e') return 0;
      const index = LONG_E2E_FILES.indexOf(basename(spec.moduleId));
      return index === -1 ? LONG_E2E_FILES.length : index;
    };
    // Array.prototype.sort is stable: only e2e files move, and only relative to each other.
    const position = new Map(sorted.map((spec, index) => [spec, index]));
    return [...sorted].sort((a, b) => {
      if (a.project.name !== 'e2e' || b.project.name !== 'e2e') return position.get(a)! - position.get(b)!;
      return rank(a) - rank(b) || position.get(a)! - position.get(b)!;
    });
  }
}
