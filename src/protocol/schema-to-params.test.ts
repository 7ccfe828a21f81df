import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { paramsToSchema, schemaToParams } from './schema-to-params.ts';
import type { ToolParam } from './registry.ts';

describe('schemaToParams', () => {
  it('reads the echo tool schema: type, required, description', () => {
    const schema = {
      type: 'object',
      properties: { text: { type: 'string', description: 'Text to echo back.' } },
      required: ['text'],
    };
    expect(schemaToParams(schema)).toEqual([{ name: 'text', type: 'string', required: true, description: 'Text to echo back.' }]);
  });

  it('keeps property order, marks only listed names required, copies enum and default', () => {
    const schema = {
      type: 'object',
      properties: {
        unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
        city: { type: 'string' },
        days: { type: 'integer', default: 1 },
      },
      required: ['city', 'not-a-property', 42],
    };
    expect(schemaToParams(schema)).toEqual([
      { name: 'unit', type: 'string', required: false, enum: ['c', 'f'], default: 'c' },
      { name: 'city', type: 'string', required: true },
      { name: 'days', type: 'integer', required: false, default: 1 },
    ]);
  });

  it('tolerates what zod-to-json-schema and the SDK emit: $schema, additionalProperties, title', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      title: 'EchoArgs',
      additionalProperties: false,
      properties: { text: { type: 'string', title: 'Text', minLength: 1 } },
      required: ['text'],
    };
    expect(schemaToParams(schema)).toEqual([{ name: 'text', type: 'string', required: true }]);
  });

  it('reads nullable written as a type array', () => {
    expect(schemaToParams({ type: 'object', properties: { note: { type: ['string', 'null'] } } })).toEqual([
      { name: 'note', type: 'string', required: false, nullable: true },
    ]);
  });

  it('reads nullable written as anyOf or oneOf with a null branch, taking details from the branch', () => {
    const schema = {
      type: 'object',
      properties: {
        limit: { anyOf: [{ type: 'integer', description: 'Max rows.' }, { type: 'null' }], default: null },
        mode: { oneOf: [{ type: 'null' }, { type: 'string', enum: ['a', 'b'] }], description: 'Outer wins.' },
      },
    };
    expect(schemaToParams(schema)).toEqual([
      { name: 'limit', type: 'integer', required: false, nullable: true, description: 'Max rows.', default: null },
      { name: 'mode', type: 'string', required: false, nullable: true, description: 'Outer wins.', enum: ['a', 'b'] },
    ]);
  });

  it('reads a single-branch anyOf as that type, not nullable', () => {
    expect(schemaToParams({ properties: { n: { anyOf: [{ type: 'number' }] } } })).toEqual([{ name: 'n', type: 'number', required: false }]);
  });

  it('reads array element types', () => {
    const schema = { properties: { tags: { type: 'array', items: { type: 'string' } }, any: { type: 'array', items: {} } } };
    expect(schemaToParams(schema)).toEqual([
      { name: 'tags', type: 'array', required: false, items: 'string' },
      { name: 'any', type: 'array', required: false },
    ]);
  });

  it('reads const as a one-value enum', () => {
    expect(schemaToParams({ properties: { kind: { const: 'fixed' } } })).toEqual([{ name: 'kind', type: 'any', required: false, enum: ['fixed'] }]);
  });

  it("falls back to 'any' for anything richer than one type", () => {
    const schema = {
      properties: {
        union: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        multi: { type: ['string', 'number'] },
        ref: { $ref: '#/definitions/Thing' },
        all: { allOf: [{ type: 'string' }] },
        odd: { type: 'date' },
        empty: {},
        yes: true,
      },
    };
    expect(schemaToParams(schema).map((param) => [param.name, param.type])).toEqual([
      ['union', 'any'],
      ['multi', 'any'],
      ['ref', 'any'],
      ['all', 'any'],
      ['odd', 'any'],
      ['empty', 'any'],
      ['yes', 'any'],
    ]);
  });

  it('returns no parameters for a missing, empty or malformed schema', () => {
    expect(schemaToParams(undefined)).toEqual([]);
    expect(schemaToParams({})).toEqual([]);
    expect(schemaToParams({ type: 'object' })).toEqual([]);
    expect(schemaToParams({ properties: [] as unknown as Record<string, unknown> })).toEqual([]);
    expect(schemaToParams(null as never)).toEqual([]);
    expect(schemaToParams('schema' as never)).toEqual([]);
  });

  it('keeps a property called __proto__ as an ordinary parameter', () => {
    const schema = JSON.parse('{"properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}') as Record<string, unknown>;
    const params = schemaToParams(schema);
    expect(params).toEqual([{ name: '__proto__', type: 'string', required: true }]);
    expect(Object.keys(paramsToSchema(params).properties as object)).toEqual(['__proto__']);
  });

  it('never throws, whatever JSON it is given', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (schema, property) => {
        schemaToParams(schema as never);
        schemaToParams({ type: 'object', properties: { p: property }, required: ['p'] });
      }),
    );
  });
});

describe('paramsToSchema', () => {
  it('round-trips the parameter list through a schema', () => {
    const params: ToolParam[] = [
      { name: 'q', type: 'string', required: true, description: 'Query.' },
      { name: 'n', type: 'integer', required: false, nullable: true, default: 5 },
      { name: 'tags', type: 'array', required: false, items: 'string' },
      { name: 'mode', type: 'string', required: false, enum: ['x', 'y'] },
      { name: 'blob', type: 'any', required: false },
    ];
    expect(schemaToParams(paramsToSchema(params))).toEqual(params);
  });
});
