// The worker host's programs in a REAL browser (Debian's Chromium): the official SDK's McpServer
// must load and serve in a module worker (no node:* anywhere in what it pulls in), the learner's
// server must load through sucrase in its worker, and a learner server stuck in a loop must be
// ended by the page's watchdog. The worker entries are bundled for the browser by esbuild (as Vite
// would, per worker file) and served from a temp dir; the page runs the real createWorkerHost.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../e2e/browser.ts';
import type { CheckResult } from './browser-workers/page.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { viteWorkerUrlStandIn } from '../../tools/esbuild-worker-url.ts';
import { ECHO_SERVER_INFO } from '../../src/protocol/echo-tools.ts';

const ENTRIES = {
  'echo-worker': 'src/runtime/echo-worker.ts',
  'learner-server-worker': 'src/runtime/learner-server-worker.ts',
  'sdk-echo-worker': 'src/runtime/sdk-echo-worker.ts',
  'sdk2-echo-worker': 'src/runtime/sdk2-echo-worker.ts',
  'mcp-http-worker': 'src/runtime/mcp-http-worker.ts',
  'sdk-http-worker': 'src/runtime/sdk-http-worker.ts',
  page: 'tests/integration/browser-workers/page.ts',
};

let dir = '';
let server: Server;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'worker-programs-'));
  await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: Object.entries(ENTRIES).map(([out, input]) => ({ in: input, out })),
    outdir: dir,
    bundle: true,
    // The browser platform: a node:* import anywhere in the SDK's graph fails this build.
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    logLevel: 'silent',
    plugins: [viteWorkerUrlStandIn],
  });
  await writeFile(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>workers</title><script type="module" src="./page.js"></script>');
  server = createServer((req, res) => {
    const name = (req.url ?? '/').split('?')[0] === '/' ? 'index.html' : (req.url ?? '').slice(1);
    readFile(join(dir, name)).then(
      (body) => res.writeHead(200, { 'Content-Type': extname(name) === '.js' ? 'text/javascript' : 'text/html' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await page.waitForFunction(() => window.workerPrograms !== undefined);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((done) => server?.close(done));
  if (dir) await rm(dir, { recursive: true, force: true });
});

function check(program: string, learnerServer?: { code: string; file: string; moduleId?: string }): Promise<CheckResult> {
  return page.evaluate(([name, source]) => window.workerPrograms!.check(name as never, source), [program, learnerServer] as const);
}

describe('worker host programs in Chromium', () => {
  it("runs the official SDK's McpServer in a module worker", async () => {
    const result = await check('sdk-echo-server');
    expect(result).toMatchObject({ serverName: 'sdk-echo-server', tools: ['echo'], echoed: [{ type: 'text', text: '你好 👋' }], error: null });
    expect(result.closeReason).toBe('server exited with code 0');
    expect(result.stderr).toBe('sdk-echo-server: ready on stdio (ndjson)\n');
    expect(pageErrors).toEqual([]);
  });

  it("runs SDK 2.4.0's serveStdio in a module worker: the server Check my client meets on the worker host", async () => {
    const result = await check('sdk2-echo-server');
    expect(result).toMatchObject({ serverName: 'sdk2-echo-server', tools: ['echo'], echoed: [{ type: 'text', text: '你好 👋' }], error: null });
    expect(result.closeReason).toBe('server exited with code 0');
    expect(result.stderr).toBe('sdk2-echo-server: ready on stdio (ndjson)\n');
    expect(pageErrors).toEqual([]);
  });

  it('runs mcp-http in its module worker: Streamable HTTP over the HTTP/1.1 bytes the worker writes', async () => {
    const result = await check('mcp-http');
    expect(result).toMatchObject({ serverName: ECHO_SERVER_INFO.name, echoed: [{ type: 'text', text: '你好 👋' }], failIsError: true, error: null });
    expect(result.argv).toEqual(['node', 'mcp-http.mjs', '--port=0']);
    // client.close() is DELETE over HTTP; once it is answered the wire stops the server.
    expect(result.closeReason).toBe('server was stopped by SIGTERM');
    expect(pageErrors).toEqual([]);
  });

  it("runs the official SDK's Streamable HTTP server (sdk-http-server) in its module worker: the server Check my client's HTTP mode meets", async () => {
    const result = await check('sdk-http-server');
    expect(result).toMatchObject({ serverName: 'sdk-http-server', tools: ['echo'], echoed: [{ type: 'text', text: '你好 👋' }], error: null });
    expect(result.argv).toEqual(['node', 'sdk-http-server.mjs']);
    expect(result.closeReason).toBe('server was stopped by SIGTERM');
    expect(pageErrors).toEqual([]);
  });

  it("runs the learner's server (the reference file) through sucrase in its worker", async () => {
    const code = await readFile(join(PROJECT_ROOT, 'src/protocol/server.ts'), 'utf8');
    const result = await check('learner-server', { code, file: 'server.ts', moduleId: '@protocol/server' });
    expect(result).toMatchObject({ serverName: 'mcp-echo-server', echoed: [{ type: 'text', text: '你好 👋' }], failIsError: true, error: null });
    expect(result.tools).toEqual(['add', 'delay_echo', 'delete_file', 'echo', 'fail']);
    expect(result.argv).toEqual(['node', 'learner-server.mjs', 'server.ts']);
    expect(result.closeReason).toBe('server exited with code 0');
  });

  // When the watchdog fires (not before the limit, at most one check after) is checked on a fake
  // clock in src/runtime/worker-host-programs.test.ts; here: that a real browser's stuck worker is
  // ended and reported, with no clock reading.
  it('ends a learner server whose handle() never returns, and says it ran past the 2 s limit', async () => {
    const code = 'export class McpServer {\n  handle() {\n    for (;;) {}\n  }\n}\n';
    const result = await check('learner-server', { code, file: 'server.ts' });
    expect(result.error).toMatch(/closed|stopped|SIGKILL/i);
    expect(result.closeReason).toBe('server was stopped by SIGKILL');
    expect(result.stderr).toContain('[learner-server] stopped: your server ran for more than 2 s without pausing');
  });

  it('a learner file that does not load: one stderr line, exit code 3', async () => {
    const result = await check('learner-server', { code: 'export class McpServer {\n  x = ;\n}\n', file: 'server.ts' });
    expect(result.closeReason).toBe('server exited with code 3');
    expect(result.stderr).toMatch(/^\[learner-server\] your server did not load: server\.ts:2:\d+: /);
  });
});
