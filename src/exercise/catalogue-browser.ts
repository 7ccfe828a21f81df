// The catalogue in the page: Vite inlines every exercise file as text at build time, so the
// exercises load with the page and work offline. The reference solutions are loaded on demand
// (only when a learner asks to see one).

import { buildCatalogue, groupByFolder, type Catalogue } from './catalogue.ts';

const exerciseFiles = import.meta.glob<string>('/exercises/*/*', { query: '?raw', import: 'default', eager: true });

const solutionFiles = import.meta.glob<string>(['/src/protocol/**/*.ts', '!/src/protocol/**/*.test.ts', '!/src/protocol/inspect/**'], { query: '?raw', import: 'default' });

let catalogue: Catalogue | undefined;

export function loadCatalogue(): Catalogue {
  catalogue ??= buildCatalogue(groupByFolder(exerciseFiles));
  return catalogue;
}

/** The text of a reference file named in `meta.solution` / `meta.solutionModule` ('src/protocol/jsonrpc.ts'). */
export async function loadSolutionSource(path: string): Promise<string | undefined> {
  const load = solutionFiles[`/${path.replace(/^\/+/, '')}`];
  return load ? load() : undefined;
}
