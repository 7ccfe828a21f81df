// A starter in another language (exercises/NN/starter.<locale>.ts) translates the comments only:
// its code must be the English starter's. Both files are parsed by a real TypeScript parser (swc):
// the syntax trees, without positions (and so without comments or layout), must be equal. A "//"
// inside a string is a string, never a comment, and types count as code.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSync } from '@swc/core';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../tools/project-root.ts';

const EXERCISES = join(PROJECT_ROOT, 'exercises');

/** The code's syntax tree as JSON, with every position left out: comments and layout leave no trace. */
function codeTokens(source: string): string {
  const tree = parseSync(source, { syntax: 'typescript', comments: false, target: 'es2022' });
  return JSON.stringify(tree, (key, value: unknown) => (key === 'span' || key === 'ctxt' ? undefined : value));
}

const localized = readdirSync(EXERCISES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((entry) => readdirSync(join(EXERCISES, entry.name)).filter((file) => /^starter\.[A-Za-z-]+\.ts$/.test(file)).map((file) => [entry.name, file] as const));

describe('localized starters', () => {
  it('the token reader ignores comments but not a "//" inside a string', () => {
    expect(codeTokens('const a = 1; // one\n/* two */ const b = "//x";')).toEqual(codeTokens('const a = 1;\nconst b = "//x"; // 注释'));
    expect(codeTokens('const b = "//x";')).not.toEqual(codeTokens('const b = "x";'));
  });

  it('there is at least one', () => {
    expect(localized.length).toBeGreaterThan(0);
  });

  it.each(localized)('%s/%s has exactly the code of starter.ts, with comments in its own language', (folder, file) => {
    const english = readFileSync(join(EXERCISES, folder, 'starter.ts'), 'utf8');
    const translated = readFileSync(join(EXERCISES, folder, file), 'utf8');
    expect(codeTokens(translated)).toEqual(codeTokens(english));
    if (file.includes('zh-CN')) expect(translated, 'a Chinese starter has Chinese comments').toMatch(/[\u4e00-\u9fff]/);
  });
});
