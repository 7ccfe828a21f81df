// 按工具输入 schema 用到的那一小部分 JSON Schema 检查工具参数，并用模型能据此行动的话
// 说出哪里错了。服务器在运行工具之前（BEFORE）执行它，所以工具函数体可以信任它的参数，
// 模型也能得到一句精确的 "b must be a number" 去改正。
//
// 支持的关键字：type（一个名字或一个列表）、required、properties、additionalProperties:
// false、enum、minimum、maximum、items。其他关键字一律忽略而不是拒绝，
// 因为为更完整的校验器写的 schema 在这里也必须能用。

import type { JsonSchema } from './mcp.ts';

/** `args` 在 `schema` 下的问题，每个一句可读的话。为空表示合法。 */
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
    // 到此为止：对一个类型不对的值再抱怨范围或枚举，只会添乱。
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

/** 在抱怨里模型应当读到的值的样子：它的类型，短的时候再加上值本身。 */
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

/** JSON 相等：枚举选项可能是对象或数组，键的顺序无关紧要。 */
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
