// The performance budget that does not depend on the machine: the JavaScript a learner downloads
// before the editor opens (the entry script of the production build and everything it imports
// statically) is at most 250 KB gzipped. Monaco, its TypeScript worker and the WebContainer API
// must stay behind dynamic import(). `npm run bench` prints the same number with the load time.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryScripts, FIRST_PAINT_JS_BUDGET_BYTES, kilobytes, measureFirstPaintJs, staticImports, type FirstPaintJs } from '../../bench/first-paint-js.ts';
import { distDir } from '../e2e/browser.ts';

describe('reading the module graph', () => {
  it('finds module entries and modulepreloads in the HTML, not other scripts or other origins', () => {
    const html = `<script type="module" crossorigin src="/assets/index-a.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/vendor-b.js"><link rel="stylesheet" href="/assets/x.css">
      <script src="/legacy.js"></script><script type="module" src="https://cdn.example/x.js"></script>`;
    expect(entryScripts(html)).toEqual(['/assets/index-a.js', '/assets/vendor-b.js']);
  });

  it('follows static imports and re-exports, never import()', async () => {
    const code = `import{a as b}from"./react-1.js";import"./side-2.js";export{c}from"./re-3.js";const m=()=>import("./monaco-4.js");import.meta.url;`;
    expect(await staticImports(code)).toEqual(['./react-1.js', './side-2.js', './re-3.js']);
  });
});

describe('the first-paint JavaScript of the production build', () => {
  let measured: FirstPaintJs;

  beforeAll(async () => {
    // The production build the e2e project made once (tests/e2e/global-setup.ts).
    measured = await measureFirstPaintJs(distDir());
  });

  afterAll(() => {
    if (measured) console.log(`first-paint JS: ${measured.chunks.map((chunk) => `${chunk.file} ${kilobytes(chunk.gzipBytes)}`).join(', ')}; total ${kilobytes(measured.totalGzipBytes)} gzipped of ${kilobytes(FIRST_PAINT_JS_BUDGET_BYTES)}`);
  });

  it(`is at most ${FIRST_PAINT_JS_BUDGET_BYTES / 1024} KB gzipped`, () => {
    expect(measured.totalGzipBytes).toBeGreaterThan(10 * 1024); // it did find the app
    expect(measured.totalGzipBytes, measured.chunks.map((chunk) => `${chunk.file}: ${kilobytes(chunk.gzipBytes)}`).join('\n')).toBeLessThanOrEqual(FIRST_PAINT_JS_BUDGET_BYTES);
  });

  it('leaves Monaco and the WebContainer API out of it', () => {
    const files = measured.chunks.map((chunk) => chunk.file).join('\n');
    expect(files).not.toMatch(/editor\.api|monaco|editor\.worker|ts\.worker|webcontainer/i);
  });
});
