import { describe, expect, it } from 'vitest';
import { transpile } from './transpile.ts';

describe('transpile', () => {
  it('strips types and turns imports and exports into CommonJS', () => {
    const result = transpile(["import { encodeRequest } from '@protocol/jsonrpc';", 'import type { JsonRpcId } from "@protocol/jsonrpc";', 'export function ping(id: JsonRpcId): unknown {', "  return encodeRequest(id, 'ping');", '}'].join('\n'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.code).toContain("require('@protocol/jsonrpc')");
    expect(result.code).toContain('exports.ping = ping');
    expect(result.code).not.toContain('JsonRpcId');
  });

  it('keeps every line where it was, so stack trace lines are learner lines', () => {
    const source = ['interface A {', '  x: number;', '}', 'type B = A;', '', 'export const f = (a: A): B => a;', 'export const marker = 42;'].join('\n');
    const result = transpile(source);
    if (!result.ok) throw new Error('expected to transpile');
    const lines = result.code.split('\n');
    expect(lines.findIndex((line) => line.includes('marker'))).toBe(6);
  });

  it('keeps modern syntax (class fields) as written', () => {
    const result = transpile('export class Counter { count = 0; #secret = 1; get secret() { return this.#secret; } }');
    if (!result.ok) throw new Error('expected to transpile');
    expect(result.code).toContain('count = 0');
    expect(result.code).not.toContain('__init');
  });

  it('reports a syntax error with its 1-based line and column instead of throwing', () => {
    const result = transpile(['export function f() {', '  return 1 +;', '}'].join('\n'), 'jsonrpc.ts');
    expect(result).toEqual({ ok: false, error: { message: 'Unexpected token', line: 2, column: 13 } });
  });

  it('reports an unterminated string on its line', () => {
    const result = transpile(['const a = 1;', 'const b = "open', 'const c = 3;'].join('\n'));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.line).toBe(2);
    expect(result.error.message).toMatch(/Unterminated string/);
  });
});
