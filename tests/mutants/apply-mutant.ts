// Turns a mutant descriptor (mutant.ts) into what runSpec needs: a learner source and a map of
// reference modules in which the bug is live.
//
// How the bug reaches the spec. runSpec takes the reference modules as a map ('@protocol/<path>' →
// exports) and resolves every '@protocol/…' import of the learner and the spec through it. So the
// patched file is evaluated from source (transpile + the engine's own module loader) and put into
// a copy of that map under its own id, and so is every reference module that imports it, directly
// or not (the graph is read from the transpiled code, so type-only imports do not count). Their
// relative imports are rewritten to '@protocol/<path>' first, which the loader resolves to the
// patched modules. Everything that imports the file therefore sees the bug:
// - when the file IS the exercise's solution module (jsonrpc.ts, client.ts, server.ts), the
//   learner source is the patched file itself, run by runSpec exactly as a learner's file is;
// - when the solution module only gathers several files (framing/index.ts, bridge.ts), the learner
//   source is that module as written, its re-exports now resolving to the patched file — and the
//   other reference modules that use the file (register-mcp-tools.ts calling mcpResultToText, say)
//   are patched too, so the bug behaves as it would in the real program.
// Modules the patch cannot reach stay the very objects the reference run uses, so classes the spec
// imports (DuplicateToolError, ClientClosedError) keep their identity.
//
// Each edit's `find` must occur exactly once: when the reference changes under a mutant, the
// mutant stops with an error naming it instead of quietly testing stale code.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createModuleLoader, type SourceModule } from '../../src/sandbox/module-loader.ts';
import { findProtocolModule, protocolIdOfPath, resolveRelative, type ProtocolModules } from '../../src/sandbox/protocol-modules.ts';
import { sourceUrlFor } from '../../src/sandbox/source-location.ts';
import { transpile } from '../../src/sandbox/transpile.ts';
import type { RunResult } from '../../src/sandbox/spec-results.ts';
import type { Mutant, MutantEdit } from './mutant.ts';

export class MutantError extends Error {
  override name = 'MutantError';
}

/** Where a patch goes, for messages: the mutant ('02-frames/bad-json-throws') and the file. */
export interface PatchTarget {
  mutant: string;
  file: string;
}

/** Applies the edits in order; throws a MutantError naming the mutant when one does not fit. */
export function applyEdits(source: string, edits: readonly MutantEdit[], target: PatchTarget): string {
  if (edits.length === 0) throw new MutantError(`Mutant ${target.mutant} has no edits: it would be the reference itself.`);
  let text = source;
  edits.forEach(({ find, replace }, index) => {
    const which = `Mutant ${target.mutant}, edit ${index + 1} of ${edits.length}`;
    if (find === '') throw new MutantError(`${which}: "find" is empty.`);
    if (find === replace) throw new MutantError(`${which}: "replace" equals "find", so the edit changes nothing.`);
    const count = occurrences(text, find);
    if (count === 0) {
      throw new MutantError(
        `${which}: ${quote(find)} is not in ${target.file}. The reference has changed under the mutant: put the bug back into the new code, or delete the mutant if its failure mode no longer applies.`,
      );
    }
    if (count > 1) {
      throw new MutantError(`${which}: ${quote(find)} occurs ${count} times in ${target.file}; make "find" longer so it names one place.`);
    }
    const at = text.indexOf(find);
    text = text.slice(0, at) + replace + text.slice(at + find.length);
  });
  return text;
}

/**
 * Rewrites the relative imports of a file under src/protocol ('./x.ts', '../x.ts') to the module
 * ids a spec would use ('@protocol/framing/x'). `canonical` may map an id to the one it stands for
 * ('@protocol/framing' → '@protocol/framing/index').
 */
export function rewriteRelativeImports(source: string, file: string, canonical: (id: string) => string = (id) => id): string {
  const from = protocolIdOfPath(file);
  if (from === undefined) throw new MutantError(`${file} is not under src/protocol, so its imports cannot become '@protocol/…' ids.`);
  return source.replace(/(\b(?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*)\2/g, (_match, lead: string, q: string, specifier: string) => {
    const id = resolveRelative(from, specifier.replace(/\.(ts|js)$/, ''));
    if (id === undefined) throw new MutantError(`${file} imports '${specifier}', which is outside src/protocol.`);
    return `${lead}${q}${canonical(id)}${q}`;
  });
}

/** Every reference module's source (tests left out), keyed by its project-relative path. */
export function readReferenceSources(projectRoot: string): Record<string, string> {
  const sources: Record<string, string> = {};
  const visit = (folder: string): void => {
    for (const entry of readdirSync(folder)) {
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) visit(path);
      else if (entry.endsWith('.ts') && !entry.endsWith('.test.ts') && !entry.endsWith('.d.ts')) {
        sources[relative(projectRoot, path).split('\\').join('/')] = readFileSync(path, 'utf8');
      }
    }
  };
  visit(join(projectRoot, 'src', 'protocol'));
  return sources;
}

export interface PatchedRunInput {
  /** For messages, e.g. '02-frames/bad-json-throws'. */
  name: string;
  /** The reference file to patch, project-relative ('src/protocol/…'). */
  file: string;
  /** The patch: reference source in, patched source out. */
  patch(source: string): string;
  /** The module '@learner' stands for on the reference run (meta.solutionModule). */
  solutionModule: string;
  /** Every reference module's source by project-relative path (readReferenceSources). */
  referenceSources: Readonly<Record<string, string>>;
  /** The reference modules as the reference run sees them. */
  protocolModules: ProtocolModules;
}

export interface MutantRunInput extends Omit<PatchedRunInput, 'file' | 'patch'> {
  mutant: Pick<Mutant, 'file' | 'edits'>;
}

export interface MutantRun {
  learnerSource: string;
  learnerModuleId: string;
  /** `input.protocolModules` with the patched file and everything that imports it replaced. */
  protocolModules: ProtocolModules;
  /** Ids of the replaced modules, the patched file first. */
  patched: string[];
}

/** The learner source and reference modules for running a spec against a mutant. */
export function buildMutantRun({ mutant, ...rest }: MutantRunInput): MutantRun {
  const patch = (source: string) => applyEdits(source, mutant.edits, { mutant: rest.name, file: mutant.file });
  return buildPatchedRun({ ...rest, file: mutant.file, patch });
}

/**
 * The same with any patch. With the identity patch it is the control experiment: the machinery
 * alone (rewritten imports, modules evaluated from source) must leave the spec passing.
 */
export function buildPatchedRun(input: PatchedRunInput): MutantRun {
  const { name, file, solutionModule, referenceSources } = input;
  const fileId = idOf(file, name);
  const solutionId = idOf(solutionModule, name);
  const reference = referenceSources[file];
  if (reference === undefined) throw new MutantError(`Mutant ${name}: ${file} is not a reference module.`);
  if (referenceSources[solutionModule] === undefined) throw new MutantError(`Mutant ${name}: the solution module ${solutionModule} is not a reference module.`);

  const ids = Object.fromEntries(Object.keys(referenceSources).map((path) => [idOf(path, name), path]));
  const canonical = (id: string) => findProtocolModule(ids, id) ?? id;
  const rewritten = new Map<string, string>(); // id → source with '@protocol/…' imports
  for (const [id, path] of Object.entries(ids)) {
    const source = path === file ? input.patch(reference) : (referenceSources[path] as string);
    rewritten.set(id, rewriteRelativeImports(source, path, canonical));
  }

  const code = new Map<string, string>();
  for (const [id, source] of rewritten) {
    const result = transpileOnce(source, ids[id] as string);
    if (!result.ok) {
      const { message, line } = result.error;
      const what = id === fileId ? `the patched ${file}` : ids[id];
      throw new MutantError(`Mutant ${name}: ${what} does not compile${line === undefined ? '' : ` (line ${line})`}: ${message}`);
    }
    code.set(id, result.code);
  }
  const patched = importersOf(fileId, code, canonical);

  const sources: Record<string, SourceModule> = {};
  for (const id of patched) {
    sources[id] = { code: code.get(id) as string, url: sourceUrlFor(`mutant/${ids[id]}`), displayName: `${ids[id]} (mutant ${name})`, location: id };
  }
  const loader = createModuleLoader({ sources, protocolModules: input.protocolModules });
  const protocolModules: Record<string, unknown> = { ...input.protocolModules };
  for (const id of patched) {
    try {
      protocolModules[id] = loader.require(id);
    } catch (error) {
      throw new MutantError(`Mutant ${name}: ${ids[id]} could not be loaded with the patch: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  // `patched` starts with the file itself, so this also covers a file that is the solution module.
  if (!patched.includes(solutionId)) {
    throw new MutantError(`Mutant ${name}: the solution module ${solutionModule} does not import ${file}, so the learner would never meet the bug.`);
  }
  return { learnerSource: rewritten.get(solutionId) as string, learnerModuleId: solutionId, protocolModules, patched };
}

/**
 * What is wrong with a mutant's `caughtBy` against a run: an entry that names no test or several
 * (a title is enough when it is unique; else use 'describe › title'), or a test that passed.
 */
export function caughtByProblems(result: Pick<RunResult, 'tests'>, caughtBy: readonly string[]): string[] {
  const problems: string[] = [];
  for (const expected of caughtBy) {
    const matches = result.tests.filter((test) => test.name === expected || test.name.endsWith(` › ${expected}`));
    if (matches.length === 0) problems.push(`no test is named "${expected}"`);
    else if (matches.length > 1) problems.push(`"${expected}" names ${matches.length} tests; give the describe path too`);
    else if (matches[0]?.status === 'pass') problems.push(`"${expected}" passed`);
  }
  return problems;
}

/** `id` and every module that imports it, directly or through others, from transpiled code. */
function importersOf(id: string, code: ReadonlyMap<string, string>, canonical: (id: string) => string): string[] {
  const importers = new Map<string, string[]>();
  for (const [from, text] of code) {
    for (const match of text.matchAll(/\brequire\((['"])(@protocol\/[^'"]+)\1\)/g)) {
      const to = canonical(match[2] as string);
      importers.set(to, [...(importers.get(to) ?? []), from]);
    }
  }
  const found = [id];
  for (let i = 0; i < found.length; i++) {
    for (const from of importers.get(found[i] as string) ?? []) if (!found.includes(from)) found.push(from);
  }
  return found;
}

// Most modules reach buildPatchedRun unpatched, run after run: transpile each text once.
const transpiled = new Map<string, ReturnType<typeof transpile>>();
function transpileOnce(source: string, path: string): ReturnType<typeof transpile> {
  const key = `${path}\0${source}`;
  let result = transpiled.get(key);
  if (result === undefined) {
    result = transpile(source, path);
    transpiled.set(key, result);
  }
  return result;
}

function idOf(path: string, mutant: string): string {
  const id = protocolIdOfPath(path);
  if (id === undefined) throw new MutantError(`Mutant ${mutant}: ${path} is not a file under src/protocol.`);
  return id;
}

function occurrences(text: string, find: string): number {
  let count = 0;
  for (let at = text.indexOf(find); at !== -1; at = text.indexOf(find, at + 1)) count++;
  return count;
}

function quote(text: string): string {
  const line = text.length > 160 ? `${text.slice(0, 157)}...` : text;
  return JSON.stringify(line);
}
