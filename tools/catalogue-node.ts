// The same catalogue read from disk, for Node (the CLI, tests, scripts). Node only: the page uses
// catalogue-browser.ts.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildCatalogue, type Catalogue, type ExerciseFiles } from '../src/exercise/catalogue.ts';
import { protocolModulesFromGlob, type ProtocolModules } from '../src/sandbox/protocol-modules.ts';
import { PROJECT_ROOT } from './project-root.ts';

export const EXERCISES_DIR = join(PROJECT_ROOT, 'exercises');

/** Reads every `<dir>/<folder>/*` file of every folder in `dir`; drafts only when asked (the engine's checks). */
export function readCatalogueFromDisk(dir: string = EXERCISES_DIR, options: { drafts?: boolean } = {}): Catalogue {
  const folders: ExerciseFiles = {};
  if (existsSync(dir)) {
    for (const folder of readdirSync(dir)) {
      const folderPath = join(dir, folder);
      if (!statSync(folderPath).isDirectory()) continue;
      const files: Record<string, string> = {};
      for (const file of readdirSync(folderPath)) {
        const filePath = join(folderPath, file);
        if (statSync(filePath).isFile()) files[file] = readFileSync(filePath, 'utf8');
      }
      folders[folder] = files;
    }
  }
  return buildCatalogue(folders, options);
}

/**
 * Imports every reference module under `src/protocol` (tests left out), keyed as specs import
 * them. Needs a runtime that imports TypeScript (Vitest, tsx).
 */
export async function loadProtocolModulesFromDisk(protocolDir: string = join(PROJECT_ROOT, 'src', 'protocol')): Promise<ProtocolModules> {
  const modules: Record<string, unknown> = {};
  const visit = async (folder: string): Promise<void> => {
    for (const entry of readdirSync(folder)) {
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) await visit(path);
      else if (entry.endsWith('.ts') && !entry.endsWith('.test.ts') && !entry.endsWith('.d.ts')) {
        modules[`protocol/${relative(protocolDir, path).split('\\').join('/')}`] = await import(pathToFileURL(path).href);
      }
    }
  };
  await visit(protocolDir);
  return protocolModulesFromGlob(modules);
}
