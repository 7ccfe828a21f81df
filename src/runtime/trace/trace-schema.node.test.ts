// The JSON Schema in docs/trace-format and the reader's own checks are two statements of one
// format: fed the same lines, generated valid ones and broken ones, they must say the same thing.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbEvent, arbHeader, requiredKeysOf } from '../../../tests/support/trace-arbitraries.ts';
import { PROJECT_ROOT } from '../../../tools/project-root.ts';
import { checkEvent, checkHeader } from './trace-validate.ts';

const schema = JSON.parse(readFileSync(resolve(PROJECT_ROOT, 'docs/trace-format/trace-v1.schema.json'), 'utf8')) as object;
const ajv = new Ajv2020({ allErrors: false, strict: true, allowUnionTypes: true });
ajv.addSchema(schema, 'trace');
function definition(name: string): ValidateFunction {
  const validate = ajv.getSchema(`trace#/$defs/${name}`);
  if (!validate) throw new Error(`no $defs/${name}`);
  return validate;
}
const schemaHeader = definition('header');
const schemaEvent = definition('event');
const schemaLine = ajv.getSchema('trace') as ValidateFunction;

type Fields = Record<string, unknown>;

// Ways to break a valid object: drop a field, add one, or put any JSON value in a field.
function mutants(valid: fc.Arbitrary<object>): fc.Arbitrary<unknown> {
  const anyJson = fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(
    fc.tuple(valid, fc.nat()).map(([value, i]) => {
      const keys = Object.keys(value);
      const copy: Fields = { ...value };
      delete copy[keys[i % keys.length] as string];
      return copy;
    }),
    fc.tuple(valid, fc.string({ minLength: 1, maxLength: 6 }), anyJson).map(([value, key, extra]) => ({ ...value, [key]: extra })),
    fc.tuple(valid, fc.nat(), anyJson).map(([value, i, replacement]) => {
      const keys = Object.keys(value);
      return { ...value, [keys[i % keys.length] as string]: replacement };
    }),
    anyJson,
  );
}

// What the reader sees is what JSON.parse gives back, so both judge the value after a round trip
// (which also turns -0 into 0 and drops undefined, as a file would).
const viaJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? 'null');

describe('trace-v1.schema.json and trace-validate.ts agree', () => {
  it('is a valid draft 2020-12 schema that compiles strictly', () => {
    expect(ajv.validateSchema(schema)).toBe(true);
  });

  it('both accept every generated valid header and event', () => {
    fc.assert(
      fc.property(arbHeader, (header) => {
        const value = viaJson(header);
        expect(checkHeader(value)).toBeNull();
        expect(schemaHeader(value)).toBe(true);
        expect(schemaLine(value)).toBe(true);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(arbEvent, (event) => {
        const value = viaJson(event);
        expect(checkEvent(value)).toBeNull();
        expect(schemaEvent(value)).toBe(true);
        expect(schemaLine(value)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('both give the same verdict on broken headers', () => {
    fc.assert(
      fc.property(mutants(arbHeader), (mutant) => {
        const value = viaJson(mutant);
        expect(checkHeader(value) === null).toBe(schemaHeader(value));
      }),
      { numRuns: 1000 },
    );
  });

  it('both give the same verdict on broken events', () => {
    fc.assert(
      fc.property(mutants(arbEvent), (mutant) => {
        const value = viaJson(mutant);
        expect(checkEvent(value) === null).toBe(schemaEvent(value));
      }),
      { numRuns: 1500 },
    );
  });

  it('both refuse a dropped required field and an unknown field, every time', () => {
    fc.assert(
      fc.property(fc.oneof(arbHeader, arbEvent), fc.nat(), (valid, i) => {
        const keys = requiredKeysOf(valid);
        const dropped: Fields = { ...valid };
        delete dropped[keys[i % keys.length] as string];
        const extra = { ...valid, surplus: true };
        for (const value of [dropped, extra]) {
          expect(checkHeader(value) === null || checkEvent(value) === null).toBe(false);
          expect(schemaLine(value)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('agree on the edge cases a generator rarely reaches', () => {
    const header = { format: 'mcp-playground-trace', version: 1, mode: 'stdio', framing: 'ndjson', framingSource: 'given', started: '2026-12-01T16:00:00.000Z', recorder: 'r', program: ['node'] };
    const cases: Array<[unknown, 'header' | 'event']> = [
      [{ ...header, version: 2 }, 'header'],
      [{ ...header, framing: 'http' }, 'header'],
      [{ ...header, program: [] }, 'header'],
      [{ ...header, started: '2026-12-01 16:00' }, 'header'],
      [{ ...header, mode: 'http', framing: 'http', program: undefined, target: 'ftp://x', listen: 'http://127.0.0.1:1' }, 'header'],
      [{ ...header, mode: 'http', framing: 'http', program: [] }, 'header'],
      [{ ...header, mode: 'http', framing: 'http' }, 'header'],
      [{ tap: 1, ev: 'open', t: 0, conn: 2 ** 31 }, 'event'],
      [{ tap: 1, ev: 'close', t: 0, conn: 0, message: 7 }, 'event'],
      [{ tap: 1, ev: 'c2s', t: 0, b64: 'A===' }, 'event'],
      [{ tap: 1, ev: 'c2s', t: 0, b64: 'QQ==' }, 'event'],
      [{ tap: 1, ev: 'c2s', t: -1, b64: '' }, 'event'],
      [{ tap: 1, ev: 'c2s', t: 0, b64: '', conn: 0 }, 'event'],
      [{ tap: 1, ev: 'exit', t: 0, code: 1.5, signal: null }, 'event'],
      [{ tap: 1, ev: 'exit', t: 0, code: 0 }, 'event'],
      [{ tap: 1, ev: 'exit', t: 0, code: null, signal: 'SIGTERM', shutdown: 'SIGTERM' }, 'event'],
      [{ tap: 1, ev: 'exit', t: 0, code: 0, signal: null, shutdown: 'later' }, 'event'],
      [{ tap: 1, ev: 'spawn', t: 0, pid: 7, argv: [], proc: 'both' }, 'event'],
      [{ tap: '1', ev: 'open', t: 0, conn: 1 }, 'event'],
      [{ tap: 1, ev: 'close', t: 0, conn: 1, by: 'nobody' }, 'event'],
    ];
    for (const [raw, kind] of cases) {
      const value = viaJson(raw);
      const ours = kind === 'header' ? checkHeader(value) === null : checkEvent(value) === null;
      const theirs = kind === 'header' ? schemaHeader(value) : schemaEvent(value);
      expect({ value, ours }).toEqual({ value, ours: theirs });
    }
    // `--between` names the shutdown step a process ended after: eof, SIGTERM or SIGKILL, nothing else.
    expect(checkEvent(viaJson({ tap: 1, ev: 'exit', t: 0, code: null, signal: 'SIGTERM', shutdown: 'SIGTERM' }))).toBeNull();
    expect(checkEvent(viaJson({ tap: 1, ev: 'exit', t: 0, code: 0, signal: null, shutdown: 'later' }))).not.toBeNull();
  });
});
