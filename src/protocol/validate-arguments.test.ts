import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { validateArguments } from './validate-arguments.ts';

const addSchema = {
  type: 'object',
  properties: {
    a: { type: 'number', description: 'first' },
    b: { type: 'number', description: 'second' },
  },
  required: ['a', 'b'],
  additionalProperties: false,
};

describe('validateArguments', () => {
  it('accepts valid arguments with no problems', () => {
    expect(validateArguments(addSchema, { a: 1, b: 2.5 })).toEqual([]);
  });

  it('requires an object at the top when the schema says object', () => {
    expect(validateArguments(addSchema, [1, 2])).toEqual(['the arguments must be an object, got an array']);
    expect(validateArguments(addSchema, null)).toEqual(['the arguments must be an object, got null']);
    expect(validateArguments(addSchema, 'x')).toEqual(['the arguments must be an object, got string "x"']);
  });

  it('names each missing required argument', () => {
    expect(validateArguments(addSchema, {})).toEqual(['missing required argument "a"', 'missing required argument "b"']);
  });

  it('says which argument has the wrong type and what it got', () => {
    expect(validateArguments(addSchema, { a: '1', b: 2 })).toEqual(['"a" must be a number, got string "1"']);
    expect(validateArguments(addSchema, { a: 1, b: true })).toEqual(['"b" must be a number, got boolean true']);
  });

  it('checks every JSON type name', () => {
    const schemaOf = (type: string) => ({ type: 'object', properties: { v: { type } } });
    const samples: Record<string, unknown> = {
      string: 's',
      number: 1.5,
      integer: 3,
      boolean: false,
      array: [1],
      object: { k: 1 },
      null: null,
    };
    for (const [type, good] of Object.entries(samples)) {
      expect(validateArguments(schemaOf(type), { v: good }), type).toEqual([]);
    }
    expect(validateArguments(schemaOf('integer'), { v: 1.5 })).toEqual(['"v" must be an integer, got number 1.5']);
    expect(validateArguments(schemaOf('number'), { v: 7 })).toEqual([]);
    expect(validateArguments(schemaOf('object'), { v: [] })).toEqual(['"v" must be an object, got an array']);
    expect(validateArguments(schemaOf('array'), { v: {} })).toEqual(['"v" must be an array, got an object']);
    expect(validateArguments(schemaOf('null'), { v: 0 })).toEqual(['"v" must be null, got number 0']);
    expect(validateArguments(schemaOf('boolean'), { v: 'true' })).toHaveLength(1);
  });

  it('accepts a list of types', () => {
    const schema = { type: 'object', properties: { v: { type: ['string', 'null'] } } };
    expect(validateArguments(schema, { v: null })).toEqual([]);
    expect(validateArguments(schema, { v: 'x' })).toEqual([]);
    expect(validateArguments(schema, { v: 1 })).toEqual(['"v" must be a string or null, got number 1']);
  });

  it('checks enum, including object options regardless of key order', () => {
    const schema = { type: 'object', properties: { unit: { type: 'string', enum: ['c', 'f'] }, o: { enum: [{ x: 1, y: 2 }] } } };
    expect(validateArguments(schema, { unit: 'c' })).toEqual([]);
    expect(validateArguments(schema, { unit: 'k' })).toEqual(['"unit" must be one of "c", "f", got string "k"']);
    expect(validateArguments(schema, { o: { y: 2, x: 1 } })).toEqual([]);
    expect(validateArguments(schema, { o: { x: 1 } })).toHaveLength(1);
  });

  it('checks minimum and maximum inclusively', () => {
    const schema = { type: 'object', properties: { ms: { type: 'integer', minimum: 0, maximum: 10 } } };
    expect(validateArguments(schema, { ms: 0 })).toEqual([]);
    expect(validateArguments(schema, { ms: 10 })).toEqual([]);
    expect(validateArguments(schema, { ms: -1 })).toEqual(['"ms" must be at least 0, got -1']);
    expect(validateArguments(schema, { ms: 11 })).toEqual(['"ms" must be at most 10, got 11']);
  });

  it('does not pile range complaints on top of a type complaint', () => {
    const schema = { type: 'object', properties: { ms: { type: 'integer', minimum: 0 } } };
    expect(validateArguments(schema, { ms: '-5' })).toEqual(['"ms" must be an integer, got string "-5"']);
  });

  it('refuses unknown arguments only when additionalProperties is false', () => {
    expect(validateArguments(addSchema, { a: 1, b: 2, c: 3 })).toEqual(['unexpected argument "c" (expected: a, b)']);
    const open = { ...addSchema, additionalProperties: undefined };
    expect(validateArguments(open, { a: 1, b: 2, c: 3 })).toEqual([]);
  });

  it('reports every problem at once', () => {
    expect(validateArguments(addSchema, { a: 'x', c: 1 })).toEqual([
      'missing required argument "b"',
      '"a" must be a number, got string "x"',
      'unexpected argument "c" (expected: a, b)',
    ]);
  });

  it('descends into nested objects and array items with a path', () => {
    const schema = {
      type: 'object',
      properties: {
        point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x', 'y'] },
        tags: { type: 'array', items: { type: 'string' } },
      },
    };
    expect(validateArguments(schema, { point: { x: 'a' }, tags: ['ok', 2] })).toEqual([
      'missing required argument "point.y"',
      '"point.x" must be a number, got string "a"',
      '"tags[1]" must be a string, got number 2',
    ]);
  });

  it('ignores unknown keywords and malformed keyword values', () => {
    const schema = { type: 'object', required: 'a', pattern: '^x$', properties: { a: { type: 'string', format: 'email', minLength: 5 } } };
    expect(validateArguments(schema, { a: 'b' })).toEqual([]);
    expect(validateArguments({}, 42)).toEqual([]);
    expect(validateArguments({ type: 'no-such-type' }, 42)).toEqual([]);
  });

  it('shortens long strings in messages', () => {
    const [problem] = validateArguments({ type: 'number' }, 'x'.repeat(100));
    expect(problem).toBe(`the arguments must be a number, got string "${'x'.repeat(40)}…"`);
  });

  it('never throws and accepts every value under an empty schema (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(validateArguments({}, value)).toEqual([]);
        expect(Array.isArray(validateArguments(addSchema, value))).toBe(true);
      }),
    );
  });
});
