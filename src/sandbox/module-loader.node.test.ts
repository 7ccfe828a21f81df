import { describe, expect, it } from 'vitest';
import { createModuleLoader, ModuleNotFoundError, type SourceModule } from './module-loader.ts';
import { sourceUrlFor } from './source-location.ts';
import { transpile } from './transpile.ts';

function source(ts: string, displayName = 'learner.ts', extra: Partial<SourceModule> = {}): SourceModule {
  const result = transpile(ts, displayName);
  if (!result.ok) throw new Error(result.error.message);
  return { code: result.code, url: sourceUrlFor(`test/${displayName}`), displayName, ...extra };
}

const protocolModules = {
  '@protocol/jsonrpc': { encodeRequest: (id: number, method: string) => ({ jsonrpc: '2.0', id, method }) },
  '@protocol/framing/index': { name: 'framing index' },
  '@protocol/framing/ndjson': { name: 'ndjson' },
};

describe('createModuleLoader', () => {
  it('gives a module the built-ins, the compiled sources and the reference modules it imports', () => {
    const loader = createModuleLoader({
      builtins: { vitest: { marker: 'vitest api' } },
      sources: { '@learner': source("import { encodeRequest } from '@protocol/jsonrpc';\nexport const ping = (id: number) => encodeRequest(id, 'ping');") },
      protocolModules,
    });
    const spec = source("import { marker } from 'vitest';\nimport { ping } from '@learner';\nexport const result = [marker, ping(0)];", 'spec.ts');
    expect(loader.run(spec)).toMatchObject({ result: ['vitest api', { jsonrpc: '2.0', id: 0, method: 'ping' }] });
  });

  it("accepts '@protocol/x.ts' and a folder ('@protocol/framing' is framing/index)", () => {
    const loader = createModuleLoader({ protocolModules });
    expect(loader.require('@protocol/jsonrpc.ts')).toBe(protocolModules['@protocol/jsonrpc']);
    expect(loader.require('@protocol/framing')).toBe(protocolModules['@protocol/framing/index']);
  });

  it("resolves '@reference/x' (a spec's oracle) through referenceModules, else through the reference modules", () => {
    const oracle = { '@protocol/jsonrpc': { oracle: true } };
    expect(createModuleLoader({ protocolModules }).require('@reference/jsonrpc')).toBe(protocolModules['@protocol/jsonrpc']);
    const loader = createModuleLoader({ protocolModules, referenceModules: oracle });
    expect(loader.require('@reference/jsonrpc.ts')).toBe(oracle['@protocol/jsonrpc']);
    expect(loader.require('@protocol/jsonrpc')).toBe(protocolModules['@protocol/jsonrpc']);
    expect(() => loader.require('@reference/nothing')).toThrow(/Cannot import '@reference\/nothing'/);
  });

  it("resolves the learner's relative imports from where its module sits among the reference modules", () => {
    const learner = source("export { name } from './ndjson.ts';\nimport * as rpc from '../jsonrpc';\nexport const hasRpc = typeof rpc.encodeRequest;", 'reader.ts', { location: '@protocol/framing/reader' });
    const loader = createModuleLoader({ sources: { '@learner': learner }, protocolModules });
    expect(loader.require('@learner')).toMatchObject({ name: 'ndjson', hasRpc: 'function' });
  });

  it('refuses an unknown import with a message naming what can be imported', () => {
    const loader = createModuleLoader({ builtins: { vitest: {} }, sources: { '@learner': source("import fs from 'node:fs';\nexport const x = fs;") }, protocolModules });
    let caught: unknown;
    try {
      loader.require('@learner');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ModuleNotFoundError);
    const message = (caught as Error).message;
    expect(message).toContain("Cannot import 'node:fs' in learner.ts");
    expect(message).toContain("'vitest', '@learner'");
    expect(message).toContain("'@protocol/jsonrpc'");
    expect(message).toContain("'@protocol/framing/ndjson'");
  });

  it('says relative imports cannot be used where a module has no place among the reference modules', () => {
    const loader = createModuleLoader({ protocolModules });
    const spec = source("import { x } from './helpers';\nexport default x;", 'spec.ts');
    expect(() => loader.run(spec)).toThrow(/Relative imports cannot be used here/);
  });

  it('knows which module was loading when an error was thrown, and its line', () => {
    const learner = source(['export const a = 1;', '', 'throw new RangeError("boom");'].join('\n'));
    const loader = createModuleLoader({ sources: { '@learner': learner } });
    const spec = source("import { a } from '@learner';\nexport const b = a;", 'spec.ts');
    let caught: unknown;
    try {
      loader.run(spec);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RangeError);
    expect(loader.failedModule).toBe(learner);
    expect(loader.lineIn((caught as Error).stack, learner)).toBe(3);
  });

  it('evaluates a module once and shares it between importers', () => {
    const counter = { count: 0 };
    const loader = createModuleLoader({ builtins: { counter: { counter } }, sources: { '@learner': source("import { counter } from 'counter';\ncounter.count += 1;\nexport const n = counter.count;") } });
    loader.require('@learner');
    loader.require('@learner');
    expect(counter.count).toBe(1);
  });

  it('hides shadowed globals from evaluated code', () => {
    const loader = createModuleLoader({ shadowedGlobals: { fetch: undefined, setTimeout: () => 'tracked' }, sources: { '@learner': source('export const seen = [typeof fetch, setTimeout(() => {}, 1)];') } });
    expect(loader.require('@learner')).toMatchObject({ seen: ['undefined', 'tracked'] });
  });

  it('names the file and its exports when an importer reads a name it does not export', () => {
    const loader = createModuleLoader({ sources: { '@learner': source('export function encode() {}\nexport class Reader {}', 'jsonrpc.ts', { guardExports: true }) } });
    const exports = loader.require('@learner') as Record<string, unknown>;
    expect(typeof exports.encode).toBe('function');
    expect(() => exports.decode).toThrow("jsonrpc.ts does not export 'decode' (it exports encode, Reader)");
    expect(exports.then).toBeUndefined(); // probed by promise machinery: must stay harmless
  });
});
