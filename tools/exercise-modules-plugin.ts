// Under Vitest in Node, specs import the same names as in the browser: '@protocol/<path>' (and the
// oracle's '@reference/<path>') is a file under src/protocol, and '@learner' is the learner's file
// for the exercise the importing spec belongs to. A plain alias cannot do the second (the file depends on the importer), so this is a
// small resolve plugin. Node only (used by vitest.config.ts and vitest.exercise.config.ts).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { parseMeta, solutionEntry } from '../src/exercise/catalogue.ts';
import { PROJECT_ROOT } from './project-root.ts';

/** The environment variable naming the learner's file; it wins over the `learner` option. */
export const LEARNER_FILE_ENV = 'EXERCISE_LEARNER_FILE';

export interface ExerciseModulesOptions {
  /**
   * What '@learner' is when EXERCISE_LEARNER_FILE is not set: the exercise's `starter.ts`, or its
   * reference (`meta.solutionModule`, else `meta.solution[0]`: what `npm test` checks specs against).
   */
  learner: 'starter' | 'solution';
  root?: string;
}

export function exerciseModulesPlugin(options: ExerciseModulesOptions): Plugin {
  const root = options.root ?? PROJECT_ROOT;
  return {
    name: 'mcp-playground:exercise-modules',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (source === '@learner') {
        const file = learnerFileFor(importer, options.learner, root);
        return file ?? null;
      }
      // '@reference/<path>' is a spec's oracle: the same file as '@protocol/<path>' (only the
      // browser engine's mutant proof tells them apart, see src/sandbox/module-loader.ts).
      const prefix = ['@protocol/', '@reference/'].find((name) => source.startsWith(name));
      if (prefix) {
        const target = join(root, 'src', 'protocol', source.slice(prefix.length));
        // Vite's own resolver adds the extension or finds `index.ts` in a folder.
        const resolved = await this.resolve(target, importer, { skipSelf: true });
        return resolved ?? null;
      }
      return null;
    },
  };
}

/** The file '@learner' stands for, seen from `importer` (a spec inside an exercise folder). */
export function learnerFileFor(importer: string | undefined, mode: ExerciseModulesOptions['learner'], root: string = PROJECT_ROOT): string | undefined {
  const fromEnv = process.env[LEARNER_FILE_ENV];
  if (fromEnv) return isAbsolute(fromEnv) ? fromEnv : resolve(root, fromEnv);
  const folder = importer ? exerciseFolderOf(importer) : undefined;
  if (!folder) return undefined;
  if (mode === 'starter') return join(folder, 'starter.ts');
  const meta = parseMeta(readFileSync(join(folder, 'meta.json'), 'utf8'));
  if (typeof meta === 'string') throw new Error(`${join(folder, 'meta.json')}: ${meta}`);
  return resolve(root, solutionEntry(meta));
}

/** The nearest folder above `file` that holds a meta.json. */
function exerciseFolderOf(file: string): string | undefined {
  let folder = dirname(file.split('?')[0] as string);
  for (;;) {
    if (existsSync(join(folder, 'meta.json'))) return folder;
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}
