// A tiny CommonJS loader for the spec and the learner's file. Three kinds of names can be imported:
// built-ins the caller provides ('vitest', 'fast-check'), modules compiled from source ('@learner'),
// and the reference modules ('@protocol/<path>'). '@reference/<path>' is the same reference module
// as the oracle a spec compares the learner's results with: it resolves through `referenceModules`,
// which the mutant proof keeps unpatched while '@protocol/<path>' carries the bug (elsewhere both
// are the same map). Anything else fails at import time with a message that lists what can be
// imported, because "module not found" alone does not tell a learner what to do.

import { findProtocolModule, PROTOCOL_PREFIX, REFERENCE_PREFIX, resolveRelative, type ProtocolModules } from './protocol-modules.ts';
import { compileFunction, lineInStack } from './source-location.ts';

export interface SourceModule {
  /** CommonJS code (see transpile.ts). */
  code: string;
  /** The name its frames carry in stack traces (see sourceUrlFor). */
  url: string;
  /** The file name shown to the learner in messages, e.g. `jsonrpc.ts`. */
  displayName: string;
  /** Where it sits among the reference modules ('@protocol/jsonrpc'), for its relative imports. */
  location?: string;
  /**
   * Importers get a view of its exports that throws, naming the file and what it does export,
   * when they read a name it does not export. Without it a missing export surfaces as sucrase's
   * "Cannot read properties of undefined (reading 'call')".
   */
  guardExports?: boolean;
}

export interface ModuleLoaderOptions {
  /** Ready-made modules by exact name, e.g. { vitest: specApi }. */
  builtins?: Record<string, unknown>;
  /** Modules compiled on first import, by exact name, e.g. { '@learner': … }. */
  sources?: Record<string, SourceModule>;
  protocolModules?: ProtocolModules;
  /** What '@reference/<path>' resolves through; `protocolModules` when not given. */
  referenceModules?: ProtocolModules;
  /**
   * Names every evaluated module sees in place of the globals of the same name (as parameters of
   * its function): `undefined` hides an API, a function replaces one (tracked timers).
   */
  shadowedGlobals?: Record<string, unknown>;
}

export class ModuleNotFoundError extends Error {
  override name = 'ModuleNotFoundError';
}

export interface ModuleLoader {
  /** Loads (once) and returns the exports of a module, as a module importing it would see them. */
  require(specifier: string): unknown;
  /** Evaluates a module nobody can import (the spec itself) and returns its exports. */
  run(source: SourceModule): unknown;
  /** The 1-based line in a source module's file of the innermost frame of `stack` inside it. */
  lineIn(stack: string | undefined, source: SourceModule): number | undefined;
  /** The source module that was being evaluated when the first evaluation error was thrown. */
  readonly failedModule: SourceModule | undefined;
}

interface ModuleRecord {
  exports: unknown;
}

// Names that libraries probe on any object (pretty-format, chai, promises, React): reading them
// must stay harmless.
const PROBED_NAMES = new Set(['then', 'toJSON', 'constructor', 'asymmetricMatch', 'nodeType', 'tagName', 'default', 'inspect', 'toString', 'valueOf', 'length', 'name', 'prototype', 'mock']);

function guardedExports(exports: object, displayName: string): object {
  return new Proxy(exports, {
    get(target, key, receiver) {
      if (typeof key === 'string' && !(key in target) && /^[A-Za-z][\w$]*$/.test(key) && !PROBED_NAMES.has(key)) {
        const names = Object.keys(target).filter((name) => name !== '__esModule');
        const has = names.length > 0 ? `it exports ${names.join(', ')}` : 'it exports nothing yet';
        throw new TypeError(`${displayName} does not export '${key}' (${has}). Check the name, and that it is declared with \`export\`.`);
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

export function createModuleLoader(options: ModuleLoaderOptions): ModuleLoader {
  const builtins = options.builtins ?? {};
  const sources = options.sources ?? {};
  const protocolModules = options.protocolModules ?? {};
  const referenceModules = options.referenceModules ?? protocolModules;
  const shadowed = Object.entries(options.shadowedGlobals ?? {});
  const params = ['require', 'module', 'exports', ...shadowed.map(([name]) => name)];
  const shadowedValues = shadowed.map(([, value]) => value);
  const loaded = new Map<string, ModuleRecord>();
  const guarded = new Map<string, { target: unknown; view: unknown }>();
  const failed = new Map<string, unknown>();
  let failedModule: SourceModule | undefined;

  function evaluate(name: string, source: SourceModule): unknown {
    const previous = loaded.get(name);
    if (previous) return previous.exports; // also ends an import cycle, as CommonJS does
    if (failed.has(name)) throw failed.get(name);
    const record: ModuleRecord = { exports: {} };
    loaded.set(name, record);
    try {
      const run = compileFunction(params, source.code, source.url);
      run(requireFrom(source), record, record.exports, ...shadowedValues);
      return record.exports;
    } catch (error) {
      loaded.delete(name);
      failed.set(name, error);
      // The innermost module catches first: that is where it went wrong, even for an error with no
      // stack frame of its own (a syntax error only the engine spotted).
      failedModule ??= source;
      throw error;
    }
  }

  function resolve(specifier: string, importer: SourceModule | undefined): unknown {
    if (Object.prototype.hasOwnProperty.call(builtins, specifier)) return builtins[specifier];
    const source = Object.prototype.hasOwnProperty.call(sources, specifier) ? sources[specifier] : undefined;
    if (source) {
      const exports = evaluate(specifier, source);
      if (!source.guardExports || typeof exports !== 'object' || exports === null) return exports;
      const known = guarded.get(specifier);
      if (known?.target === exports) return known.view;
      const view = guardedExports(exports, source.displayName);
      guarded.set(specifier, { target: exports, view });
      return view;
    }
    if (specifier.startsWith(REFERENCE_PREFIX)) {
      const key = findProtocolModule(referenceModules, PROTOCOL_PREFIX + specifier.slice(REFERENCE_PREFIX.length));
      if (key !== undefined) return referenceModules[key];
      throw new ModuleNotFoundError(notFoundMessage(specifier, importer));
    }
    let protocolName = specifier;
    if (specifier.startsWith('.') && importer?.location) {
      protocolName = resolveRelative(importer.location, specifier) ?? specifier;
    }
    const key = findProtocolModule(protocolModules, protocolName);
    if (key !== undefined) return protocolModules[key];
    throw new ModuleNotFoundError(notFoundMessage(specifier, importer));
  }

  function notFoundMessage(specifier: string, importer: SourceModule | undefined): string {
    const where = importer ? ` in ${importer.displayName}` : '';
    const names = [...Object.keys(builtins), ...Object.keys(sources)].map((name) => `'${name}'`);
    const reference = Object.keys(protocolModules).sort().map((name) => `'${name}'`);
    const relative = specifier.startsWith('.') && !importer?.location ? ' Relative imports cannot be used here.' : '';
    const parts = [names.join(', '), reference.length > 0 ? `the reference modules ${reference.join(', ')}` : ''].filter(Boolean);
    return `Cannot import '${specifier}'${where}: there is no such module here.${relative} You can import ${parts.join(' and ') || 'nothing'}.`;
  }

  function requireFrom(importer: SourceModule | undefined): (specifier: string) => unknown {
    return (specifier) => resolve(String(specifier), importer);
  }

  return {
    require: requireFrom(undefined),
    run: (source) => evaluate('\u0000entry', source),
    lineIn: (stack, source) => lineInStack(stack, source.url, params.length),
    get failedModule() {
      return failedModule;
    },
  };
}
