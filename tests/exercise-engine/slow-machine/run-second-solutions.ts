// Child process of slow-machine.test.ts: runs exercises' specs on their second solutions with the
// engine the page uses (runSpec, the page's default per-test limit), after the parent says "go".
// The parent throttles this process (SIGSTOP/SIGCONT) only once it is loaded, so the start-up of
// tsx is not what gets slowed. One JSON line per exercise on stdout.
//
//   tsx run-second-solutions.ts <exercise id>...

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { requestFor } from '../../../src/exercise/exercise-runner.ts';
import { PROTOCOL_MODULE_MAP } from '../../../src/sandbox/protocol-module-map.ts';
import { runSpec } from '../../../src/sandbox/run-spec.ts';
import { readCatalogueFromDisk } from '../../../tools/catalogue-node.ts';
import { PROJECT_ROOT } from '../../../tools/project-root.ts';

const ids = process.argv.slice(2);
const catalogue = readCatalogueFromDisk(undefined, { drafts: true });
const exercises = ids.map((id) => {
  const exercise = catalogue.exercises.find((candidate) => candidate.meta.id === id);
  if (!exercise) throw new Error(`no exercise ${id}`);
  return exercise;
});
const sources = new Map(ids.map((id) => [id, readFileSync(join(PROJECT_ROOT, 'tests/exercise-engine/second-solutions', `${id}.ts`), 'utf8')]));

process.stdout.write('ready\n');
const input = createInterface({ input: process.stdin });
input.once('line', () => {
  input.close();
  void (async () => {
    for (const exercise of exercises) {
      const result = await runSpec({ ...requestFor(exercise, sources.get(exercise.meta.id)!), protocolModules: PROTOCOL_MODULE_MAP });
      const failures = result.tests.filter((test) => test.status !== 'pass').map((test) => `${test.name}: ${test.message}`);
      process.stdout.write(`${JSON.stringify({ id: exercise.meta.id, status: result.status, message: result.message, failures, tests: result.tests.length, durationMs: result.durationMs })}\n`);
    }
  })();
});
