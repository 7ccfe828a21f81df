// The Solve view loads each reference file through loadSolutionSource: under zh-CN the copy with
// Chinese comments, under English (or for a file without a copy) the reference in src/protocol/.
// Node, because the expected texts are read from disk.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { loadSolutionSource } from './catalogue-browser.ts';
import { localizedSolutionPath } from './catalogue.ts';

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');

describe('localizedSolutionPath', () => {
  it('maps a reference file to its copy in the exercise folder, for a language other than English', () => {
    expect(localizedSolutionPath('02-frames', 'src/protocol/framing/ndjson.ts', 'zh-CN')).toBe('exercises/02-frames/reference/framing/ndjson.zh-CN.ts');
    expect(localizedSolutionPath('01-jsonrpc', 'src/protocol/jsonrpc.ts', 'zh-CN')).toBe('exercises/01-jsonrpc/reference/jsonrpc.zh-CN.ts');
    expect(localizedSolutionPath('01-jsonrpc', 'src/protocol/jsonrpc.ts', 'en')).toBeNull();
    expect(localizedSolutionPath('01-jsonrpc', 'server/echo-server.ts', 'zh-CN')).toBeNull();
  });
});

describe('loadSolutionSource', () => {
  it('under zh-CN gives the Chinese copy, under English the reference itself', async () => {
    const chinese = await loadSolutionSource('src/protocol/framing/ndjson.ts', '02-frames', 'zh-CN');
    expect(chinese).toBe(read('exercises/02-frames/reference/framing/ndjson.zh-CN.ts'));
    expect(chinese).toMatch(/[\u4e00-\u9fff]/);
    expect(await loadSolutionSource('src/protocol/framing/ndjson.ts', '02-frames', 'en')).toBe(read('src/protocol/framing/ndjson.ts'));
    expect(await loadSolutionSource('src/protocol/framing/ndjson.ts')).toBe(read('src/protocol/framing/ndjson.ts'));
  });

  it('falls back to the reference when there is no copy, and says nothing for an unknown file', async () => {
    // A file of another exercise's folder is no copy of this one: the path names the exercise.
    expect(await loadSolutionSource('src/protocol/framing/ndjson.ts', '01-jsonrpc', 'zh-CN')).toBe(read('src/protocol/framing/ndjson.ts'));
    expect(await loadSolutionSource('src/protocol/no-such-file.ts', '01-jsonrpc', 'zh-CN')).toBeUndefined();
  });
});
