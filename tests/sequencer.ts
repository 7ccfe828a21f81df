// The order test files start in. Vitest runs the longest files first once it has timings from an
// earlier run (node_modules/.vite/vitest); on a clean clone it has none and starts the largest
// files first, which puts the two tiny protocol-view-<host>.test.ts files, the longest of all, at
// the very end, with the other workers idle. So the end-to-end files known to be long go first,
// in this order, on every run; so does slow-machine.test.ts among the unit and integration files
// (it waits a minute on a child throttled to a tenth of a core: started late, it alone kept the
// other workers idle at the end); everything else keeps Vitest's own order.

import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** End-to-end files, longest first (measured on two cores). */
const LONG_E2E_FILES = [
  'offline.test.ts',
  'failure-lab-worker.test.ts',
  'exercises.test.ts',
  'protocol-view-bridge.test.ts',
  'server-features.test.ts',
  'http-stepper.test.ts',
  'sdk-checks.test.ts',
  'live-panel.test.ts',
  'http-learner.test.ts',
  'era-stepper.test.ts',
  'workshop-room.test.ts',
  'bench-smoke.test.ts',
  'path-walk.test.ts',
  'i18n.test.ts',
  'lesson-layout.test.ts',
  'protocol-view-worker.test.ts',
  'preflight.test.ts',
  'portable-progress.test.ts',
];

/**
 * Unit and integration files that must not start last. Only the one that waits: putting the
 * CPU-heavy long ones first too (mutants, tap-record, the conformance runs) made them contend and
 * group 0 slower (unit + integration on a clean clone of two cores: 111 s as Vitest orders them,
 * 106 s with this file first, 120 s with the heavy ones first as well).
 */
const LONG_NODE_FILES = ['slow-machine.test.ts'];

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const list = spec.project.name === 'e2e' ? LONG_E2E_FILES : LONG_NODE_FILES;
      const index = list.indexOf(basename(spec.moduleId));
      return index === -1 ? list.length : index;
    };
    // Each project kind in its own order (they run in different groups anyway): listed files
    // first, by the list, then the rest in Vitest's order (Array.prototype.sort is stable).
    const position = new Map(sorted.map((spec, index) => [spec, index]));
    const byRank = (specs: TestSpecification[]) => specs.sort((a, b) => rank(a) - rank(b) || position.get(a)! - position.get(b)!);
    return [...byRank(sorted.filter((spec) => spec.project.name !== 'e2e')), ...byRank(sorted.filter((spec) => spec.project.name === 'e2e'))];
  }
}
