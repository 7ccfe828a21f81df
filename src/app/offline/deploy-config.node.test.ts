// The deploy configurations (public/_headers for Netlify / Cloudflare Pages, vercel.json, and the
// server snippets in docs/DEPLOY.md) must send the same isolation headers as `npm start`: a missing
// one makes the page not isolated on that host, which nothing else would notice.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANDBOX_FRAME_CONTENT_SECURITY_POLICY } from '../../../server/sandbox-document.ts';
import { CONTENT_SECURITY_POLICY, EVERY_RESPONSE_HEADERS, PAGE_HEADERS, SERVICE_WORKER_CONTENT_SECURITY_POLICY, WORKER_CONTENT_SECURITY_POLICY } from '../../../server/security-headers.ts';
import { PROJECT_ROOT } from '../../../tools/project-root.ts';

const read = (path: string) => readFile(join(PROJECT_ROOT, path), 'utf8');

/** Netlify's _headers format: a path line, then indented `Name: value` lines. */
function parseHeadersFile(text: string): Map<string, Record<string, string>> {
  const rules = new Map<string, Record<string, string>>();
  let current: Record<string, string> | null = null;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      current = {};
      rules.set(line.trim(), current);
      continue;
    }
    const at = line.indexOf(':');
    if (current && at > 0) current[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return rules;
}

describe('deploy configurations', () => {
  it('public/_headers sends every isolation header on every path, and revalidates sw.js', async () => {
    const rules = parseHeadersFile(await read('public/_headers'));
    expect(rules.get('/*')).toEqual(EVERY_RESPONSE_HEADERS);
    expect(rules.get('/sw.js')).toEqual({ 'Cache-Control': 'no-cache', 'Content-Security-Policy': SERVICE_WORKER_CONTENT_SECURITY_POLICY });
    expect(rules.get('/assets/*')?.['Cache-Control']).toContain('immutable');
    // Every script carries a policy; the sandbox frame its own (paths that do not overlap).
    expect(rules.get('/assets/*')?.['Content-Security-Policy']).toBe(WORKER_CONTENT_SECURITY_POLICY);
    expect(rules.get('/generated/*')).toEqual({ 'Content-Security-Policy': WORKER_CONTENT_SECURITY_POLICY });
    expect(rules.get('/sandbox/*')).toEqual({ 'Cache-Control': 'public, max-age=31536000, immutable', 'Content-Security-Policy': SANDBOX_FRAME_CONTENT_SECURITY_POLICY });
    // The page, and only the page, gets the CSP and no framing.
    for (const page of ['/', '/index.html']) expect(rules.get(page)).toEqual({ 'Cache-Control': 'no-cache', ...PAGE_HEADERS });
  });

  it('vercel.json does the same', async () => {
    const config = JSON.parse(await read('vercel.json')) as { outputDirectory: string; headers: { source: string; headers: { key: string; value: string }[] }[] };
    expect(config.outputDirectory).toBe('dist');
    const bySource = new Map(config.headers.map((rule) => [rule.source, Object.fromEntries(rule.headers.map((header) => [header.key, header.value]))]));
    expect(bySource.get('/(.*)')).toEqual(EVERY_RESPONSE_HEADERS);
    expect(bySource.get('/sw.js')).toEqual({ 'Cache-Control': 'no-cache', 'Content-Security-Policy': SERVICE_WORKER_CONTENT_SECURITY_POLICY });
    expect(bySource.get('/assets/(.*)')).toEqual({ 'Cache-Control': 'public, max-age=31536000, immutable', 'Content-Security-Policy': WORKER_CONTENT_SECURITY_POLICY });
    expect(bySource.get('/generated/(.*)')).toEqual({ 'Content-Security-Policy': WORKER_CONTENT_SECURITY_POLICY });
    expect(bySource.get('/sandbox/(.*)')).toEqual({ 'Cache-Control': 'public, max-age=31536000, immutable', 'Content-Security-Policy': SANDBOX_FRAME_CONTENT_SECURITY_POLICY });
    for (const page of ['/', '/index.html']) expect(bySource.get(page)).toEqual({ 'Cache-Control': 'no-cache', ...PAGE_HEADERS });
  });

  it('docs/DEPLOY.md gives each isolation header for nginx, Apache and Caddy', async () => {
    const docs = await read('docs/DEPLOY.md');
    for (const block of ['```nginx', '```apache', '```caddy']) {
      const start = docs.indexOf(block);
      expect(start, block).toBeGreaterThan(0);
      // nginx keeps its headers in the first block (the included snippet).
      const text = docs.slice(start, docs.indexOf('```', start + block.length));
      for (const [name, value] of Object.entries(EVERY_RESPONSE_HEADERS)) expect(text, `${block} ${name}`).toMatch(new RegExp(`${name}\\s+"?${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"?`));
    }
    // The page headers, word for word, in the text and in each server's snippet.
    expect(docs.split(CONTENT_SECURITY_POLICY).length - 1).toBeGreaterThanOrEqual(4);
    expect(docs.split('X-Frame-Options').length - 1).toBeGreaterThanOrEqual(4);
    // The sandbox frame's policy (without which it runs no learner code) and the scripts' too:
    // in the text and in each server's snippet.
    expect(docs.split(SANDBOX_FRAME_CONTENT_SECURITY_POLICY).length - 1).toBeGreaterThanOrEqual(4);
    expect(docs.split(WORKER_CONTENT_SECURITY_POLICY).length - 1).toBeGreaterThanOrEqual(4);
  });
});
