// Exercise runs: how long a learner waits between pressing Run and seeing the results, in the real
// page, against the CLI that runs the same spec under real Vitest (`npm run --silent exercise --
// check <id> --solution`), both on the reference solution, in the same run on the same machine.
//
// The page: the production build served by server/start.ts, Debian's Chromium driven over the bare
// DevTools pipe (hosts-cdp.ts: no CDP domain enabled, so the driver adds nothing to the page's
// work). The reference is put into the learner's saved progress before the page loads, exactly as
// "Use the reference" would leave it. One timed sample: click Run, then wait until the results
// panel shows a finished run (a MutationObserver on its status) and the next animation frame, when
// the browser paints them. The spec worker is warm, as the page keeps it.
// "Results" is what the learner waits for: the example tests' verdict, which the page shows as soon
// as they are done while the property tests (most of a run) are still checked and stream in
// (src/sandbox/test-executor.ts; the status's data-examples). The whole run, properties included,
// is its own column.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { solutionEntry } from '../src/exercise/catalogue.ts';
import { readCatalogueFromDisk } from '../tools/catalogue-node.ts';
import { PROJECT_ROOT } from '../tools/project-root.ts';
import { serializeProgress, PROGRESS_VERSION, type ExerciseProgress } from '../src/exercise/progress-data.ts';
import { DEFAULT_PROGRESS_KEY } from '../src/exercise/progress-store.ts';
import { UI_PREFERENCES_KEY } from '../src/app/exercise/ui-preferences.ts';
import { currentBuild, serveBuild } from './app-build.ts';
import { openChromiumPage, type CdpPage } from './hosts-cdp.ts';
import { formatTable, median, ratio, verdict } from './report.ts';

export interface ExerciseRunRow {
  exercise: string;
  /** Every timed and untimed run in the page ended 'pass', and every CLI check exited 0: the reference was measured, not a failure. */
  referencePassed: boolean;
  /** Run → the results: the examples' verdict shown (or the whole run, for a spec without properties). */
  browserMedianMs: number;
  /** Run → every test done, the properties included. */
  browserAllMedianMs: number;
  cliMedianMs: number;
  /** cliMedianMs / browserMedianMs. */
  speedup: number;
}

export interface ExerciseRunOptions {
  exercises?: readonly string[];
  browserRuns?: number;
  browserWarmupRuns?: number;
  cliRuns?: number;
  /** How long the page may settle (editor, TypeScript worker) before the first run; default 3000 ms. */
  settleMs?: number;
  /** A production build to serve as it is (see app-build.ts); default dist/, built when stale. */
  distDir?: string;
}

export const EXERCISE_RUN_GOAL_MS = 150;
export const EXERCISE_RUN_GOAL_SPEEDUP = 10;

// Every exercise of the catalogue, in its order (issue 25: the table lists all seven).
const DEFAULTS = { browserRuns: 20, browserWarmupRuns: 5, cliRuns: 3, settleMs: 3000 } as const;
const PAGE_TIMEOUT_MS = 60_000;

/** One timed run in the page; resolves with [ms to the results painted, the run's status, ms to every test painted]. */
const TIMED_RUN = `new Promise((resolve, reject) => {
  const status = document.querySelector('[data-testid="run-status"]');
  const button = document.querySelector('[data-testid="run-button"]');
  if (!status || !button) return reject(new Error('no Run button or results panel'));
  const before = Number(status.dataset.seq);
  const ours = () => Number(status.dataset.seq) > before;
  const finished = () => ours() && ['pass', 'fail', 'error'].includes(status.dataset.status);
  let results;
  const observer = new MutationObserver(() => {
    if (results === undefined && ours() && (status.dataset.examples !== undefined || finished())) {
      results = null;
      requestAnimationFrame(() => (results = performance.now() - started));
    }
    if (!finished()) return;
    observer.disconnect();
    requestAnimationFrame(() => {
      const all = performance.now() - started;
      resolve([typeof results === 'number' ? results : all, status.dataset.status, all]);
    });
  });
  observer.observe(status, { attributes: true, childList: true, subtree: true, characterData: true });
  const started = performance.now();
  button.click();
})`;

export async function runExerciseRunBench(options: ExerciseRunOptions = {}): Promise<ExerciseRunRow[]> {
  const catalogue = readCatalogueFromDisk();
  const ids = options.exercises ?? catalogue.exercises.map((exercise) => exercise.meta.id);
  const browserRuns = options.browserRuns ?? DEFAULTS.browserRuns;
  const warmups = options.browserWarmupRuns ?? DEFAULTS.browserWarmupRuns;
  const cliRuns = options.cliRuns ?? DEFAULTS.cliRuns;
  const references: Record<string, ExerciseProgress> = {};
  for (const id of ids) {
    const exercise = catalogue.exercises.find((candidate) => candidate.meta.id === id);
    if (!exercise) throw new Error(`unknown exercise ${id}`);
    references[id] = { code: readFileSync(join(PROJECT_ROOT, solutionEntry(exercise.meta)), 'utf8'), completed: false, hintsRevealed: 0 };
  }

  const distDir = await currentBuild(options.distDir);
  const browser = await measureInPage(distDir, ids, references, browserRuns, warmups, options.settleMs ?? DEFAULTS.settleMs);
  const rows: ExerciseRunRow[] = [];
  for (const id of ids) {
    const cli: CliRun[] = [];
    for (let i = 0; i < cliRuns; i += 1) cli.push(await timeCli(id));
    const page = browser[id] ?? { times: [], allTimes: [], allPassed: false };
    const browserMedianMs = median(page.times);
    const cliMedianMs = median(cli.map((run) => run.ms));
    const referencePassed = page.allPassed && cli.every((run) => run.passed);
    rows.push({ exercise: id, referencePassed, browserMedianMs, browserAllMedianMs: median(page.allTimes), cliMedianMs, speedup: cliMedianMs / browserMedianMs });
  }
  return rows;
}

interface PageSamples {
  times: number[];
  allTimes: number[];
  allPassed: boolean;
}

async function measureInPage(distDir: string, ids: readonly string[], references: Record<string, ExerciseProgress>, runs: number, warmups: number, settleMs: number): Promise<Record<string, PageSamples>> {
  const server = await serveBuild(distDir);
  let page: CdpPage | null = null;
  try {
    page = await openChromiumPage(`${server.url}?host=worker`, PAGE_TIMEOUT_MS);
    await page.waitFor(`document.querySelector('[data-testid="run-status"]') !== null`, PAGE_TIMEOUT_MS);
    const progress = serializeProgress({ version: PROGRESS_VERSION, exercises: references });
    await page.evaluate(`localStorage.setItem(${JSON.stringify(DEFAULT_PROGRESS_KEY)}, ${JSON.stringify(progress)})`);
    const samples: Record<string, PageSamples> = {};
    for (const id of ids) {
      const exercise = readCatalogueFromDisk().exercises.find((candidate) => candidate.meta.id === id);
      await page.evaluate(`localStorage.setItem(${JSON.stringify(UI_PREFERENCES_KEY)}, ${JSON.stringify(JSON.stringify({ exerciseId: id }))}); location.reload(); true`);
      const file = exercise?.meta.learnerFile ?? '';
      await page.waitFor(`document.readyState === 'complete' && document.querySelector('.workspace__file')?.textContent.includes(${JSON.stringify(file)}) === true`, PAGE_TIMEOUT_MS);
      // The editor loads after the page, and TypeScript starts in its worker once the learner
      // reaches for the editor (focus here): let that settle, as it has long before a learner has
      // written enough to press Run.
      await page.waitFor(`document.querySelector('[data-testid="code-editor"] .monaco-editor .view-lines') !== null`, PAGE_TIMEOUT_MS);
      await page.evaluate(`document.querySelector('[data-testid="code-editor"] [role="textbox"]')?.focus(); true`);
      await page.evaluate(`new Promise((resolve) => setTimeout(resolve, ${settleMs}))`);
      const times: number[] = [];
      const allTimes: number[] = [];
      let allPassed = true;
      for (let i = 0; i < warmups + runs; i += 1) {
        // The first run also waits for the spec worker to finish loading: not what a learner waits for later.
        const [ms, status, allMs] = await page.evaluate<[number, string, number]>(TIMED_RUN);
        if (status !== 'pass') allPassed = false;
        if (status !== 'pass') process.stderr.write(`warning: ${id}: the reference run ended '${status}', not 'pass'\n`);
        if (i >= warmups) {
          times.push(ms);
          allTimes.push(allMs);
        }
      }
      samples[id] = { times, allTimes, allPassed };
    }
    return samples;
  } finally {
    await page?.close();
    await server.close();
  }
}

interface CliRun {
  ms: number;
  passed: boolean;
}

/** Wall time of `npm run --silent exercise -- check <id> --solution`, and whether it passed. */
function timeCli(id: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('npm', ['run', '--silent', 'exercise', '--', 'check', id, '--solution'], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const elapsed = performance.now() - started;
      if (code !== 0) process.stderr.write(`warning: the CLI check of ${id} exited with ${code}:\n${output.split('\n').slice(-5).join('\n')}\n`);
      resolve({ ms: elapsed, passed: code === 0 });
    });
  });
}

export function formatExerciseRunReport(rows: readonly ExerciseRunRow[], judged = true): string {
  const table = formatTable(
    ['exercise', 'reference passed', 'page: Run → results (median ms)', 'page: Run → every test, properties too (median ms)', 'CLI check (median ms)', 'page is faster by', 'goal'],
    rows.map((row) => {
      const met = row.referencePassed && row.browserMedianMs < EXERCISE_RUN_GOAL_MS && row.speedup >= EXERCISE_RUN_GOAL_SPEEDUP;
      return [row.exercise, row.referencePassed ? 'yes' : 'NO', row.browserMedianMs.toFixed(1), row.browserAllMedianMs.toFixed(1), row.cliMedianMs.toFixed(0), ratio(row.speedup), verdict(met, judged)];
    }),
  );
  return `${table}\ngoal: results (the example tests' verdict; the property tests stream in after it) < ${EXERCISE_RUN_GOAL_MS} ms median in the page, and ≥ ${EXERCISE_RUN_GOAL_SPEEDUP}× faster than the CLI`;
}
