// Specs that hold on a slow laptop (issue 24). A correct solution must pass however slow the
// machine: property tests run a fixed number of cases under a limit a slow machine meets
// (@protocol/property-runs), and turn the event loop every few cases so the page's 2 s silence
// rule never takes a long property for a stuck worker. No assertion reads a clock: the throttled
// run asserts only outcomes, and the event-loop check counts turns, not milliseconds.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requestFor } from '../../src/exercise/exercise-runner.ts';
import { PROPERTY_YIELD_EVERY } from '../../src/protocol/property-runs.ts';
import { PROTOCOL_MODULE_MAP } from '../../src/sandbox/protocol-module-map.ts';
import { runSpec } from '../../src/sandbox/run-spec.ts';
import { readCatalogueFromDisk } from '../../tools/catalogue-node.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { throttleGroup } from './slow-machine/cpu-throttle.ts';

const catalogue = readCatalogueFromDisk(undefined, { drafts: true });
const IDS = catalogue.exercises.map((exercise) => exercise.meta.id);
const secondSolution = (id: string) => readFileSync(join(PROJECT_ROOT, 'tests/exercise-engine/second-solutions', `${id}.ts`), 'utf8');
/** Property tests say so in their titles: "for any …". */
const isProperty = (name: string) => /\bfor any\b/.test(name);

// A tenth of one core: the specs need ten times the wall time their CPU work would take on an
// idle core, as on a machine ten times slower (slow-machine/cpu-throttle.ts).
const CPU_SHARE = 0.1;
const BACKSTOP_MS = 30 * 60_000;

let child: ChildProcessWithoutNullStreams | undefined;
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) {
    for (const signal of ['SIGCONT', 'SIGKILL'] as const) {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
    }
  }
  child = undefined;
});

interface ChildResult {
  id: string;
  status: string;
  message?: string;
  failures: string[];
  tests: number;
  durationMs: number;
}

describe('a correct solution on a machine ten times slower', () => {
  it('every spec passes on its second solution in the page\'s engine, with a tenth of a core', async () => {
    // Its own process group (detached), so the throttle's signals reach every process in it.
    const running = spawn(process.execPath, ['--import', 'tsx', 'tests/exercise-engine/slow-machine/run-second-solutions.ts', ...IDS], { cwd: PROJECT_ROOT, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    child = running;
    let stdout = '';
    let stderr = '';
    running.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => running.on('close', (code) => resolve(code)));
    const ready = new Promise<void>((resolve) => {
      running.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        if (stdout.startsWith('ready\n')) resolve();
      });
    });
    await Promise.race([ready, exited]);

    // Throttled from "go" on: loading tsx is not what is being slowed.
    const throttle = throttleGroup(running.pid!, CPU_SHARE, exited);
    running.stdin.end('go\n');
    const code = await exited;
    await throttle;

    const results = stdout.split('\n').slice(1).filter(Boolean).map((line) => JSON.parse(line) as ChildResult);
    // SLOW_MACHINE_REPORT=1 prints each spec's run time under the throttle (a measurement, not a check).
    if (process.env.SLOW_MACHINE_REPORT) console.log(results.map(({ id, durationMs }) => `${id} ${durationMs} ms`).join('\n'));
    expect({ code, stderr: stderr.trim() }).toEqual({ code: 0, stderr: '' });
    expect(results.map(({ id, status, message, failures }) => ({ id, status, message, failures }))).toEqual(IDS.map((id) => ({ id, status: 'pass', message: undefined, failures: [] })));
  }, BACKSTOP_MS);
});

describe('the command line on a machine ten times slower', () => {
  // Vitest's own per-test work makes a property slower there than in the page's engine: this is
  // where exercise 3's property hit the old 1000 ms limit on a busy two-core machine.
  it.each(['01-jsonrpc', '03-client'])('npm run exercise -- check %s <second solution> passes with a tenth of a core', async (id) => {
    const running = spawn(join(PROJECT_ROOT, 'node_modules/.bin/tsx'), ['scripts/exercise-cli.ts', 'check', id, `tests/exercise-engine/second-solutions/${id}.ts`], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    }) as unknown as ChildProcessWithoutNullStreams;
    child = running;
    let stdout = '';
    let stderr = '';
    running.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    running.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => running.on('close', (code) => resolve(code)));
    await throttleGroup(running.pid!, CPU_SHARE, exited);
    const code = await exited;
    expect({ code, failed: stdout.split('\n').filter((line) => line.startsWith('✗')), stderr: stderr.trim() }).toEqual({ code: 0, failed: [], stderr: '' });
    expect(stdout).toMatch(/\n\d+ passed, 0 failed\n$/);
  }, BACKSTOP_MS);
});

describe('property tests turn the event loop', () => {
  it.each(IDS)('%s: the event loop turns every few cases of each property (so the heartbeat can fire)', async (id) => {
    const exercise = catalogue.exercises.find((candidate) => candidate.meta.id === id)!;
    // setImmediate runs once per turn of the event loop: a property that never yields lets none run.
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns += 1;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const turnsPerTest: Array<{ name: string; turns: number }> = [];
    let before = turns;
    const result = await runSpec({
      ...requestFor(exercise, secondSolution(id)),
      protocolModules: PROTOCOL_MODULE_MAP,
      onTestResult: (test) => {
        turnsPerTest.push({ name: test.name, turns: turns - before });
        before = turns;
      },
    });
    counting = false;
    expect(result.status).toBe('pass');
    const properties = turnsPerTest.filter((test) => isProperty(test.name));
    expect(properties.length).toBeGreaterThan(0);
    // At least 40 runs per property in every spec, so at least 40 / PROPERTY_YIELD_EVERY turns.
    for (const test of properties) expect({ name: test.name, enough: test.turns >= 40 / PROPERTY_YIELD_EVERY }).toEqual({ name: test.name, enough: true });
  });
});
