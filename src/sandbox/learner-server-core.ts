// The learner's exercise-4 server, loaded and put inside the echo server's own session: the same
// reader, faults and echo tools (echo, add, delay_echo, fail, delete_file) as echo-server.mjs, with
// the learner's McpServer class in place of the reference one. Shared by the Node runner
// (server/learner-server.ts, which the bridge and the WebContainer run) and the in-browser
// learner-server worker, so every host loads the code the same way and words a failure the same.
//
// Loading uses the exercise engine (transpile.ts with sucrase, module-loader.ts), exactly as the
// spec runner does, so a file that passes its exercise loads here too. Pure: no node:*.

import { createModuleLoader, type SourceModule } from './module-loader.ts';
import type { ProtocolModules } from './protocol-modules.ts';
import { sourceUrlFor } from './source-location.ts';
import { transpile } from './transpile.ts';
import type { McpServerOptions } from '../protocol/server.ts';
import { createServerSession, type ServerFactory, type ServerSession, type ServerSessionOptions, type SessionServer } from '../protocol/server-session.ts';

import { LOAD_FAILURE_LEAD } from './learner-server-constants.ts';

/** The learner's exercise-4 file, as TypeScript source exactly as the editor holds it. */
export interface LearnerServerSource {
  code: string;
  /** The editor's file name, e.g. `server.ts`: used in messages and stack traces. */
  file: string;
  /** Where the reference sits ('@protocol/server'), so relative imports in a pasted reference resolve. */
  moduleId?: string;
}

export { LEARNER_SERVER_LOAD_EXIT_CODE, LEARNER_SERVER_LOG_PREFIX } from './learner-server-constants.ts';
export const LEARNER_SERVER_CLASS = 'McpServer';

export interface LearnerServerLoaderDeps {
  protocolModules: ProtocolModules;
  /** Globals hidden from (undefined) or replaced for the learner's code, as the spec runner does. */
  shadowedGlobals?: Record<string, unknown>;
  /** Told before and after the transpiling (no learner code runs in between). */
  onTranspile?(phase: 'preparing' | 'prepared'): void;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Transpile and evaluate the learner's file and take its McpServer class. The factory constructs
 * it with the echo server's options; a constructor that throws is reported by startLearnerSession.
 */
export function loadLearnerServer(source: LearnerServerSource, deps: LearnerServerLoaderDeps): Outcome<ServerFactory> {
  deps.onTranspile?.('preparing');
  const compiled = transpile(source.code, source.file);
  deps.onTranspile?.('prepared');
  if (!compiled.ok) {
    const { line, column, message } = compiled.error;
    return fail(`${source.file}${line === undefined ? '' : `:${line}${column === undefined ? '' : `:${column}`}`}: ${message}`);
  }
  const learner: SourceModule = { code: compiled.code, url: sourceUrlFor(`learner/${source.file}`), displayName: source.file, guardExports: true };
  if (source.moduleId) learner.location = source.moduleId;
  const loader = createModuleLoader({ sources: { '@learner': learner }, protocolModules: deps.protocolModules, shadowedGlobals: deps.shadowedGlobals });
  const where = (error: unknown): string => {
    const line = error instanceof Error ? loader.lineIn(error.stack, learner) : undefined;
    return line === undefined ? source.file : `${source.file}:${line}`;
  };

  let ServerClass: unknown;
  try {
    const exports = loader.require('@learner') as Record<string, unknown>;
    // The guarded view throws a TypeError naming what the file does export when the name is missing.
    ServerClass = exports[LEARNER_SERVER_CLASS];
  } catch (error) {
    if (error instanceof TypeError && /does not export/.test(error.message)) return fail(error.message);
    return fail(`${where(error)}: ${describeError(error)}`);
  }
  if (typeof ServerClass !== 'function') return fail(`${source.file} must export a class ${LEARNER_SERVER_CLASS}, but its ${LEARNER_SERVER_CLASS} is ${typeOf(ServerClass)}`);

  const factory: ServerFactory = (options: McpServerOptions) => {
    let instance: unknown;
    try {
      instance = new (ServerClass as new (options: McpServerOptions) => unknown)(options);
    } catch (error) {
      throw new LearnerServerLoadError(`${where(error)}: new ${LEARNER_SERVER_CLASS}(...) threw ${describeError(error)}`);
    }
    if (typeof instance !== 'object' || instance === null || typeof (instance as SessionServer).handle !== 'function') {
      throw new LearnerServerLoadError(`${source.file}: an ${LEARNER_SERVER_CLASS} needs a method handle(message)`);
    }
    return instance as SessionServer;
  };
  return { ok: true, value: factory };
}

/** A load failure worded for the learner; anything else a factory throws is a bug here. */
export class LearnerServerLoadError extends Error {
  override name = 'LearnerServerLoadError';
}

/** Load the learner's server and build the session around it: the whole start of the runner. */
export function startLearnerSession(
  source: LearnerServerSource,
  options: Omit<ServerSessionOptions, 'createServer'>,
  deps: LearnerServerLoaderDeps,
): Outcome<ServerSession> {
  const loaded = loadLearnerServer(source, deps);
  if (!loaded.ok) return loaded;
  try {
    return { ok: true, value: createServerSession({ ...options, createServer: loaded.value }) };
  } catch (error) {
    return fail(error instanceof LearnerServerLoadError ? error.message : `${source.file}: ${describeError(error)}`);
  }
}

/** The one stderr line a failed load becomes, before the runner exits with LEARNER_SERVER_LOAD_EXIT_CODE. */
export function loadFailureLine(message: string): string {
  return `${LOAD_FAILURE_LEAD}${message}`;
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name || 'Error'}: ${error.message}`;
  try {
    return `the value ${JSON.stringify(error) ?? String(error)}`;
  } catch {
    return `the value ${String(error)}`;
  }
}

function typeOf(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

function fail<T>(message: string): Outcome<T> {
  return { ok: false, message };
}
