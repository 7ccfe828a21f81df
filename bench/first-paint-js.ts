// The JavaScript a learner downloads before the page can show anything: the entry script named in
// the built index.html, its modulepreloads, and every module they import statically, followed
// through the build's own chunks. Dynamic import() is where lazy loading starts (Monaco, the
// WebContainer API, the protocol modules), so those edges are not followed. Read from dist/, so
// the number is exact and the same on every machine: the budget test can fail on it.

import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { init, parse } from 'es-module-lexer';

/** The budget: the JavaScript needed before the editor opens, gzipped. */
export const FIRST_PAINT_JS_BUDGET_BYTES = 180 * 1024;

export interface ChunkSize {
  /** Relative to the dist folder, e.g. assets/index-abc.js */
  file: string;
  bytes: number;
  /** gzip at zlib's default level, what a static host or CDN typically serves. */
  gzipBytes: number;
}

export interface FirstPaintJs {
  chunks: ChunkSize[];
  totalBytes: number;
  totalGzipBytes: number;
}

export function gzipSize(content: Uint8Array): number {
  return gzipSync(content).length;
}

/** Scripts the HTML itself asks for: module entries and modulepreload links (same-origin only). */
export function entryScripts(html: string): string[] {
  const urls: string[] = [];
  for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
    if (!/type=["']?module/.test(tag)) continue;
    const src = /\bsrc=["']?([^"'\s>]+)/.exec(tag)?.[1];
    if (src) urls.push(src);
  }
  for (const tag of html.match(/<link\b[^>]*>/g) ?? []) {
    if (!/rel=["']?modulepreload/.test(tag)) continue;
    const href = /\bhref=["']?([^"'\s>]+)/.exec(tag)?.[1];
    if (href) urls.push(href);
  }
  return urls.filter((url) => !/^[a-z]+:\/\//i.test(url) && !url.startsWith('//'));
}

/** The relative specifiers a module imports statically (import … from, import '…', export … from). */
export async function staticImports(code: string): Promise<string[]> {
  await init;
  const [imports] = parse(code);
  // d === -1: a static import; -2: import.meta; ≥ 0: a dynamic import(), which loads later.
  return imports.filter((entry) => entry.d === -1 && entry.n !== undefined && /^\.{1,2}\//.test(entry.n)).map((entry) => entry.n as string);
}

export async function measureFirstPaintJs(distDir: string): Promise<FirstPaintJs> {
  const root = resolve(distDir);
  const html = readFileSync(join(root, 'index.html'), 'utf8');
  const queue = entryScripts(html).map((url) => join(root, url.replace(/^\//, '').split(/[?#]/)[0] ?? ''));
  const seen = new Set<string>();
  const chunks: ChunkSize[] = [];
  while (queue.length > 0) {
    const path = queue.shift() as string;
    if (seen.has(path)) continue;
    seen.add(path);
    const content = readFileSync(path);
    chunks.push({ file: relative(root, path), bytes: content.length, gzipBytes: gzipSize(content) });
    for (const specifier of await staticImports(content.toString('utf8'))) queue.push(resolve(dirname(path), specifier));
  }
  if (chunks.length === 0) throw new Error(`${join(root, 'index.html')} names no module script`);
  return {
    chunks,
    totalBytes: chunks.reduce((sum, chunk) => sum + chunk.bytes, 0),
    totalGzipBytes: chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0),
  };
}

export function kilobytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
