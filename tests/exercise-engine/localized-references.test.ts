// The Solve view shows each exercise's reference files; in Chinese it shows a copy with Chinese
// comments (exercises/NN/reference/<path under src/protocol>.zh-CN.ts). The copies are only shown,
// never run: the app and the specs run the one reference in src/protocol/. So each copy must hold
// exactly the reference's code: both files are parsed by a real TypeScript parser (swc) and the
// syntax trees without positions (and so without comments or layout) must be equal, as for the
// localized starters. And the copy must really be Chinese: every comment line says something in
// Chinese, so an English comment left behind fails.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseSync } from '@swc/core';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { localizedSolutionPath, parseMeta, solutionPaths } from '../../src/exercise/catalogue.ts';

const EXERCISES = join(PROJECT_ROOT, 'exercises');

/** A position swc stores under another key than `span` (a spread argument's `spread: { start, end }`). */
function isPosition(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).join() === 'start,end';
}

/** The code's syntax tree as JSON, with every position left out: comments and layout leave no trace. */
function codeTokens(source: string): string {
  const tree = parseSync(source, { syntax: 'typescript', comments: false, target: 'es2022' });
  return JSON.stringify(tree, (key, value: unknown) => (key === 'span' || key === 'ctxt' ? undefined : isPosition(value) ? 'position' : value));
}

/** Lines that are only comment text (`// …`, `/** …`, ` * …`), with the bare markers left out. */
function commentLines(source: string): string[] {
  return source
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^(\/\/|\/\*|\*)/.test(line))
    // An indented example (`//   Content-Length: 17\r\n`) is a quote of the wire, not prose.
    .filter((line) => !/^\/\/ {2,}/.test(line))
    .map((line) => line.replace(/^(\/\/+|\/\*\*?|\*\/|\*)\s*/, '').replace(/\*\/$/, '').trim())
    .filter((text) => /[A-Za-z]{3,}/.test(text) || /[\u4e00-\u9fff]/.test(text));
}

const pairs = readdirSync(EXERCISES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(EXERCISES, entry.name, 'meta.json')))
  .flatMap((entry) => {
    const meta = parseMeta(readFileSync(join(EXERCISES, entry.name, 'meta.json'), 'utf8'));
    if (typeof meta === 'string') throw new Error(`${entry.name}: ${meta}`);
    return solutionPaths(meta).map((path) => [path, localizedSolutionPath(meta.id, path, 'zh-CN')!] as const);
  });

/** Every file under exercises/*\/reference/, so a copy no exercise shows (a renamed reference) fails too. */
function referenceCopies(): string[] {
  return readdirSync(EXERCISES, { recursive: true, encoding: 'utf8' })
    .filter((path) => /^[^/]+\/reference\/.+\.ts$/.test(path.replaceAll('\\', '/')))
    .map((path) => `exercises/${path.replaceAll('\\', '/')}`);
}

describe('localized reference solutions', () => {
  it('the tree reader ignores comments and positions, but not code', () => {
    expect(codeTokens('f(...a); // one')).toEqual(codeTokens('/* 注释 */\n\nf(...a);'));
    expect(codeTokens('f(...a);')).not.toEqual(codeTokens('f(a);'));
    expect(codeTokens('const b = "//x";')).not.toEqual(codeTokens('const b = "x";'));
  });

  it('the comment reader sees comment lines, not code', () => {
    expect(commentLines('const a = 1; // x\n/**\n * Two words.\n */\n// 注释\n//   {"jsonrpc":"2.0"}\nconst b = "/* no */";')).toEqual(['Two words.', '注释']);
  });

  it('every reference file the Solve view shows has a Chinese copy, and every copy is shown', () => {
    expect(pairs.length).toBeGreaterThan(0);
    expect(pairs.filter(([, copy]) => !existsSync(join(PROJECT_ROOT, copy))).map(([, copy]) => copy)).toEqual([]);
    expect(referenceCopies().sort()).toEqual(pairs.map(([, copy]) => copy).sort());
  });

  it.each(pairs.filter(([, copy]) => existsSync(join(PROJECT_ROOT, copy))))('%s → %s: the same code, with Chinese comments', (path, copy) => {
    const english = readFileSync(join(PROJECT_ROOT, path), 'utf8');
    const chinese = readFileSync(join(PROJECT_ROOT, copy), 'utf8');
    expect(codeTokens(chinese), `${relative(PROJECT_ROOT, copy)} must have exactly the code of ${path}`).toEqual(codeTokens(english));
    const lines = commentLines(chinese);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((text) => !/[\u4e00-\u9fff]/.test(text))).toEqual([]);
  });
});
