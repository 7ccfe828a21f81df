// 工具的 JSON Schema（MCP 服务器发布的形式）<-> 注册表的扁平参数列表（本地注册表及其界面
// 使用的形式）。扁平列表表达不了 schema 能表达的一切，所以任何比“一种类型，可能可为 null”
// 更丰富的东西都变成类型 'any'，而不是一个错误的猜测。

import type { JsonSchema } from './mcp.ts';
import type { ToolParam } from './registry.ts';

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** 一个对象 schema 的参数。什么都能容忍（缺失、格式错误、奇特写法），从不抛异常。 */
export function schemaToParams(schema: JsonSchema | undefined): ToolParam[] {
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === 'string') : []);
  return Object.entries(schema.properties).map(([name, property]) => toParam(name, property, required.has(name)));
}

/** 为一个参数列表交给模型的 JSON Schema：schemaToParams 的逆运算。 */
export function paramsToSchema(params: readonly ToolParam[]): JsonSchema {
  // 用 fromEntries 而不是赋值：参数可能叫 "__proto__"，它必须保持为一个普通的键。
  const properties = Object.fromEntries(params.map((param) => [param.name, paramToProperty(param)]));
  const required = params.filter((param) => param.required).map((param) => param.name);
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

function toParam(name: string, property: unknown, required: boolean): ToolParam {
  const param: ToolParam = { name, type: 'any', required };
  if (!isObject(property)) return param; // `true`、没有 `{}` 的简写：什么都可以

  // 可为 null 的类型有三种写法：type: ['x', 'null']，或带一个 {type: 'null'} 分支的 anyOf/oneOf。
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
  /** 类型所来自的 anyOf/oneOf 分支，它的细节（enum、items…）都在那里。 */
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
  // 只有“一种类型，可能为 null”能表达；真正的联合类型（string | number）就是 'any'。
  if (inner === undefined || inner.nullable || !isObject(only)) return { type: 'any', nullable };
  return { type: inner.type, nullable, variant: only };
}

/** 一个字段：先从属性本身取，否则从它的类型所来自的分支取。 */
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
