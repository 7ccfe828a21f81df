// A tool's JSON Schema (what MCP servers publish) <-> the registry's flat parameter list (what the
// local registry and its UI work with). The flat list cannot say everything a schema can, so
// anything richer than "one type, maybe nullable" becomes type 'any' rather than a wrong guess.

import type { JsonSchema } from './mcp.ts';
import type { ToolParam } from './registry.ts';

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** The parameters of an object schema. Tolerates anything (missing, malformed, exotic) and never throws. */
export function schemaToParams(schema: JsonSchema | undefined): ToolParam[] {
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === 'string') : []);
  return Object.entries(schema.properties).map(([name, property]) => toParam(name, property, required.has(name)));
}

/** The JSON Schema a model is given for a parameter list: the inverse of schemaToParams. */
export function paramsToSchema(params: readonly ToolParam[]): JsonSchema {
  // fromEntries, not assignment: a parameter may be called "__proto__" and must stay a plain key.
  const properties = Object.fromEntries(params.map((param) => [param.name, paramToProperty(param)]));
  const required = params.filter((param) => param.required).map((param) => param.name);
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

function toParam(name: string, property: unknown, required: boolean): ToolParam {
  const param: ToolParam = { name, type: 'any', required };
  if (!isObject(property)) return param; // `true`, `{}`-less shorthands: anything goes

  // A nullable type may be spelled three ways: type: ['x', 'null'], anyOf/oneOf with a {type: 'null'} branch.
  const shape = readType(property.type) ?? readUnion(property.anyOf) ?? readUnion(property.oneOf);
  const variant = shape?.variant ?? property;
  if (shape !== undefined) {
    param.type = shape.type;
    if (shape.nullable) param.nullable = true;
  }

  const description = pick(property, variant, 'description');
  if (typeof description === 'string') param.description = description;
  const enumValues = pick(property, variant, 'enum');
  if (Array.isArray(enumValues)) param.enum = [...enumValues];
  else if ('const' in variant) param.enum = [variant.const];
  if ('default' in property) param.default = property.default;
  if (param.type === 'array' && isObject(variant.items)) {
    const items = readType(variant.items.type);
    if (items !== undefined && !items.nullable) param.items = items.type;
  }
  return param;
}

interface TypeShape {
  type: string;
  nullable: boolean;
  /** The anyOf/oneOf branch the type came from, where its details (enum, items…) live. */
  variant?: Record<string, unknown>;
}

function readType(type: unknown): TypeShape | undefined {
  if (typeof type === 'string') return { type: JSON_TYPES.has(type) ? type : 'any', nullable: false };
  if (!Array.isArray(type)) return undefined;
  const nonNull = type.filter((name) => name !== 'null');
  const nullable = nonNull.length < type.length;
  if (nonNull.length === 0) return { type: 'null', nullable: false };
  const only = nonNull.length === 1 ? nonNull[0] : undefined;
  return { type: typeof only === 'string' && JSON_TYPES.has(only) ? only : 'any', nullable };
}

function readUnion(branches: unknown): TypeShape | undefined {
  if (!Array.isArray(branches)) return undefined;
  const isNullBranch = (branch: unknown) => isObject(branch) && branch.type === 'null';
  const others = branches.filter((branch) => !isNullBranch(branch));
  const nullable = others.length < branches.length;
  if (branches.length > 0 && others.length === 0) return { type: 'null', nullable: false };
  const only = others.length === 1 ? others[0] : undefined;
  const inner = isObject(only) ? readType(only.type) : undefined;
  // Only "one type, maybe null" is expressible; a real union (string | number) is 'any'.
  if (inner === undefined || inner.nullable || !isObject(only)) return { type: 'any', nullable };
  return { type: inner.type, nullable, variant: only };
}

/** A field from the property itself, else from the branch its type came from. */
function pick(property: Record<string, unknown>, variant: Record<string, unknown>, key: string): unknown {
  return key in property ? property[key] : variant[key];
}

function paramToProperty(param: ToolParam): JsonSchema {
  const property: JsonSchema = {};
  if (param.type !== 'any') property.type = param.nullable ? [param.type, 'null'] : param.type;
  if (param.description !== undefined) property.description = param.description;
  if (param.enum !== undefined) property.enum = [...param.enum];
  if (param.default !== undefined) property.default = param.default;
  if (param.type === 'array' && param.items !== undefined && param.items !== 'any') property.items = { type: param.items };
  return property;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
