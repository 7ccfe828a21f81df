// Checks tool arguments against the small slice of JSON Schema that tool input schemas use, and
// says what is wrong in words a model can act on. A server runs this BEFORE the tool, so a tool
// body can trust its arguments and the model gets a precise "b must be a number" to correct.
//
// Supported keywords: type (one name or a list), required, properties, additionalProperties:
// false, enum, minimum, maximum, items. Every other keyword is ignored rather than refused,
// because a schema written for a fuller validator must still work here.

import type { JsonSchema } from './mcp.ts';

/** Problems with `args` under `schema`, one readable sentence each. Empty means valid. */
export function validateArguments(schema: JsonSchema, args: unknown): string[] {
  const problems: string[] = [];
  checkValue(schema, args, '', problems);
  return problems;
}

type JsonTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

const TYPE_NAMES: readonly JsonTypeName[] = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'];

const TYPE_PHRASES: Record<JsonTypeName, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

function checkValue(schema: JsonSchema, value: unknown, path: string, problems: string[]): void {
  const subject = path === '' ? 'the arguments' : `"${path}"`;

  const types = declaredTypes(schema.type);
  if (types.length > 0 && !types.some((type) => hasType(value, type))) {
    // Stop here: range or enum complaints about a value of the wrong type would only add noise.
    problems.push(`${subject} must be ${types.map((type) => TYPE_PHRASES[type]).join(' or ')}, got ${describe(value)}`);
    return;
  }

  if (Array.isArray(schema.enum) && !schema.enum.some((option) => sameJson(option, value))) {
    const options = schema.enum.map((option) => JSON.stringify(option)).join(', ');
    problems.push(`${subject} must be one of ${options}, got ${describe(value)}`);
  }

  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) {
      problems.push(`${subject} must be at least ${schema.minimum}, got ${value}`);
    }
    if (typeof schema.maximum === 'number' && value > schema.maximum) {
      problems.push(`${subject} must be at most ${schema.maximum}, got ${value}`);
    }
  }

  if (isPlainObject(value)) checkObject(schema, value, path, problems);

  if (Array.isArray(value) && isPlainObject(schema.items)) {
    const itemSchema = schema.items;
    value.forEach((item, index) => checkValue(itemSchema, item, `${path}[${index}]`, problems));
  }
}

function checkObject(schema: JsonSchema, value: Record<string, unknown>, path: string, problems: string[]): void {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const childPath = (key: string) => (path === '' ? key : `${path}.${key}`);

  if (Array.isArray(schema.required)) {
    for (const key of schema.required) {
      if (typeof key === 'string' && !(key in value)) problems.push(`missing required argument "${childPath(key)}"`);
    }
  }

  for (const [key, child] of Object.entries(value)) {
    const propertySchema = properties[key];
    if (isPlainObject(propertySchema)) {
      checkValue(propertySchema, child, childPath(key), problems);
    } else if (schema.additionalProperties === false) {
      const allowed = Object.keys(properties);
      const hint = allowed.length > 0 ? ` (expected: ${allowed.join(', ')})` : '';
      problems.push(`unexpected argument "${childPath(key)}"${hint}`);
    }
  }
}

function declaredTypes(type: unknown): JsonTypeName[] {
  const names = Array.isArray(type) ? type : [type];
  return names.filter((name): name is JsonTypeName => TYPE_NAMES.includes(name as JsonTypeName));
}

function hasType(value: unknown, type: JsonTypeName): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    case 'null':
      return value === null;
  }
}

/** The value as a model should read it in a complaint: its type, and the value when short. */
function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `string ${JSON.stringify(shown)}`;
  }
  return `${typeof value} ${String(value)}`;
}

/** JSON equality: enum options may be objects or arrays, and key order does not matter. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameJson(a[key], b[key]));
  }
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
