// The learner's command line: `npm run --silent exercise -- <command>`.
//
//   list                       every exercise's id and title
//   check <id> [file]          run the exercise's spec under real Vitest against `file`
//                              (default: the exercise's starter.ts)
//   check <id> --solution      run it against the reference (meta.solutionModule, else
//                              meta.solution[0])
//
// `check` prints one line per test (✓ / ✗ and its name, a failure's message indented below) and
// last a line `N passed, N failed`; it exits 0 when all passed, 1 otherwise, and 2 for a usage
// error (unknown id, missing file). `--dir <folder>` reads exercises from elsewhere (tests use it).

import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { solutionEntry } from '../src/exercise/catalogue.ts';
import { readCatalogueFromDisk, EXERCISES_DIR } from '../tools/catalogue-node.ts';
import { PROJECT_ROOT } from '../tools/project-root.ts';
import { stripAnsi } from '../src/sandbox/error-details.ts';
import { LEARNER_FILE_ENV } from '../tools/exercise-modules-plugin.ts';
import type { Exercise } from '../src/exercise/types.ts';

const USAGE = `Usage:
  npm run --silent exercise -- list
  npm run --silent exercise -- check <id> [file]
  npm run --silent exercise -- check <id> --solution`;

/** Exit code 2: the command line was wrong. `showUsage` when the shape was, not just a name. */
class UsageError extends Error {
  constructor(
    message: string,
    readonly showUsage = true,
  ) {
    super(message);
  }
}

interface Args {
  command: string | undefined;
  positional: string[];
  solution: boolean;
  dir: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { command: undefined, positional: [], solution: false, dir: EXERCISES_DIR };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--solution') args.solution = true;
    else if (arg === '--dir') {
      const dir = argv[++i];
      if (!dir) throw new UsageError('--dir needs a folder');
      args.dir = resolve(dir);
    } else if (arg === '--help' || arg === '-h') args.command = 'help';
    else if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
    else if (args.command === undefined) args.command = arg;
    else args.positional.push(arg);
  }
  return args;
}

function loadExercises(dir: string): Exercise[] {
  const catalogue = readCatalogueFromDisk(dir);
  for (const problem of catalogue.problems) process.stderr.write(`warning: ${problem}\n`);
  return catalogue.exercises;
}

function list(args: Args): number {
  const exercises = loadExercises(args.dir);
  if (exercises.length === 0) {
    process.stdout.write(`No exercises found in ${relative(process.cwd(), args.dir) || '.'}\n`);
    return 0;
  }
  const width = Math.max(...exercises.map((exercise) => exercise.meta.id.length));
  for (const { meta } of exercises) process.stdout.write(`${meta.id.padEnd(width)}  ${meta.title.en}\n`);
  return 0;
}

async function check(args: Args): Promise<number> {
  const [id, file] = args.positional;
  if (!id) throw new UsageError('check needs an exercise id (see `list`)');
  if (file && args.solution) throw new UsageError('give a file or --solution, not both');
  const exercises = loadExercises(args.dir);
  const exercise = exercises.find((candidate) => candidate.meta.id === id);
  if (!exercise) {
    const known = exercises.map((candidate) => candidate.meta.id).join(', ') || 'none';
    throw new UsageError(`unknown exercise '${id}' (known: ${known})`, false);
  }
  const folder = join(args.dir, id);
  const learnerFile = args.solution ? resolve(PROJECT_ROOT, solutionEntry(exercise.meta)) : file ? resolve(file) : join(folder, 'starter.ts');
  if (!existsSync(learnerFile)) throw new UsageError(`no such file: ${learnerFile}`, false);

  process.env[LEARNER_FILE_ENV] = learnerFile;
  const outcome = await runSpecUnderVitest(join(folder, 'spec.ts'));
  let passed = 0;
  let failed = 0;
  for (const line of outcome.lines) {
    process.stdout.write(`${line.passed ? '✓' : '✗'} ${line.name}\n`);
    if (line.passed) passed += 1;
    else {
      failed += 1;
      if (line.detail) process.stdout.write(`${indent(line.detail)}\n`);
    }
  }
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

interface OutcomeLine {
  name: string;
  passed: boolean;
  detail?: string;
}

/** Runs one spec file with the project's exercise config; Vitest's own output is kept quiet. */
async function runSpecUnderVitest(specFile: string): Promise<{ lines: OutcomeLine[] }> {
  const { createVitest } = await import('vitest/node');
  // Results are read from the modules after the run; this reporter only replaces the default one.
  const quiet: Reporter = {};
  const vitest = await createVitest('test', {
    root: PROJECT_ROOT,
    config: join(PROJECT_ROOT, 'vitest.exercise.config.ts'),
    // The config is loaded through Vite's module runner, not bundled with Rolldown first: the bundle
    // step added nothing here, and on a slow machine it printed Rolldown's plugin-timings report on
    // stderr, which a learner's check must not show (tests/exercise-engine/slow-machine.test.ts).
    configLoader: 'runner',
    include: [relative(PROJECT_ROOT, specFile).split('\\').join('/')],
    reporters: [quiet],
    watch: false,
  });
  try {
    const result = await vitest.start();
    const lines: OutcomeLine[] = [];
    for (const module of result.testModules) lines.push(...moduleLines(module));
    for (const error of result.unhandledErrors) lines.push({ name: 'Unhandled error', passed: false, detail: errorText(error) });
    if (result.testModules.length === 0) lines.push({ name: relative(PROJECT_ROOT, specFile), passed: false, detail: 'Vitest found no spec to run' });
    return { lines };
  } finally {
    await vitest.close();
  }
}

function moduleLines(module: TestModule): OutcomeLine[] {
  const lines: OutcomeLine[] = [];
  for (const test of module.children.allTests()) {
    const result = test.result();
    if (result.state === 'skipped' || result.state === 'pending') continue;
    const line: OutcomeLine = { name: testName(test), passed: result.state === 'passed' };
    if (result.state === 'failed') line.detail = result.errors.map(errorText).join('\n');
    lines.push(line);
  }
  // An error outside any test: the spec or the learner's file could not be loaded.
  for (const error of module.errors()) lines.push({ name: `${module.relativeModuleId} could not run`, passed: false, detail: errorText(error) });
  return lines;
}

/** The describe path and title joined with ' › ', as the browser runner names tests. */
function testName(test: TestCase): string {
  const parts = [test.name];
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) parts.unshift(parent.name);
  return parts.join(' › ');
}

function errorText(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const { message, diff, name } = error as { message?: unknown; diff?: unknown; name?: unknown };
  const head = typeof message === 'string' ? (typeof name === 'string' && name !== 'Error' && name !== 'AssertionError' ? `${name}: ${message}` : message) : String(error);
  return stripAnsi(typeof diff === 'string' && diff ? `${head}\n\n${diff}` : head);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `    ${line}` : line))
    .join('\n');
}

async function main(argv: string[]): Promise<number> {
  try {
    const args = parseArgs(argv);
    if (args.command === 'list') return list(args);
    if (args.command === 'check') return await check(args);
    if (args.command === 'help') {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    throw new UsageError(args.command ? `unknown command '${args.command}'` : 'no command given');
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`exercise: ${error.message}\n${error.showUsage ? `${USAGE}\n` : ''}`);
      return 2;
    }
    process.stderr.write(`exercise: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
