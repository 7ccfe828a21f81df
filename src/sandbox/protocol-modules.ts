// The reference modules a spec or a learner file may import as '@protocol/<path>'. In the worker
// they come from `import.meta.glob('../protocol/**/*.ts', { eager: true })`; in Node tests from the
// same glob or from disk. Either way the keys are normalised here, so both sides agree on names.

/** '@protocol/<path without .ts>' → the module's exports (an ES module namespace). */
export type ProtocolModules = Readonly<Record<string, unknown>>;

export const PROTOCOL_PREFIX = '@protocol/';
/** The same modules as a spec's oracle, never patched by the mutant proof (module-loader.ts). */
export const REFERENCE_PREFIX = '@reference/';

/**
 * src/protocol/inspect/ holds the byte inspector's pure computations: they sit beside the protocol
 * but are not reference modules, so learner code cannot import them.
 */
const INSPECT_FOLDER = 'inspect/';

/**
 * Normalises glob keys (`../protocol/jsonrpc.ts`, `/src/protocol/framing/index.ts`) to
 * `@protocol/jsonrpc`, `@protocol/framing/index`; test files and src/protocol/inspect/ are left out.
 */
export function protocolModulesFromGlob(modules: Record<string, unknown>): ProtocolModules {
  const result: Record<string, unknown> = {};
  for (const [path, exports] of Object.entries(modules)) {
    const match = /(?:^|\/)protocol\/(.+)\.ts$/.exec(path);
    if (!match?.[1] || /\.test\.ts$/.test(path) || match[1].startsWith(INSPECT_FOLDER)) continue;
    result[PROTOCOL_PREFIX + match[1]] = exports;
  }
  return result;
}

/**
 * The key a specifier names, or undefined. Accepts an extension ('@protocol/jsonrpc.ts') and a
 * folder ('@protocol/framing' → '@protocol/framing/index'), as Vite's resolver does in Node.
 */
export function findProtocolModule(modules: ProtocolModules, specifier: string): string | undefined {
  if (!specifier.startsWith(PROTOCOL_PREFIX)) return undefined;
  const bare = specifier.replace(/\.(ts|js)$/, '').replace(/\/$/, '');
  for (const candidate of [bare, `${bare}/index`]) {
    if (Object.prototype.hasOwnProperty.call(modules, candidate)) return candidate;
  }
  return undefined;
}

/**
 * The module id of a file among the reference modules: `src/protocol/framing/ndjson.ts` →
 * `@protocol/framing/ndjson`; undefined for a file elsewhere.
 */
export function protocolIdOfPath(path: string): string | undefined {
  const match = /(?:^|\/)src\/protocol\/(.+)\.ts$/.exec(path);
  return match?.[1] ? PROTOCOL_PREFIX + match[1] : undefined;
}

/** Resolves './x.ts' or '../y' against the folder of module `fromId` ('@protocol/framing/ndjson'). */
export function resolveRelative(fromId: string, specifier: string): string | undefined {
  if (!fromId.startsWith(PROTOCOL_PREFIX)) return undefined;
  const folder = fromId.slice(PROTOCOL_PREFIX.length).split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '.' || part === '') continue;
    if (part === '..') {
      if (folder.length === 0) return undefined; // above src/protocol: not a reference module
      folder.pop();
    } else {
      folder.push(part);
    }
  }
  return PROTOCOL_PREFIX + folder.join('/');
}
