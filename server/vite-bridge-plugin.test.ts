// The plugin inside a real Vite dev server and a real preview server on loopback ports: the page
// gets the token, /bridge runs the echo server, and Vite's own HMR socket still works.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, preview, type PreviewServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { isAlive, tryUpgrade, waitUntil, WsTapTransport } from '../tests/integration/ws-tap-transport.ts';
import { bridgePlugin } from './vite-bridge-plugin.ts';
import { bridgeTokenFor } from '../tests/support/bridge-token.ts';

const ECHO = { type: 'start', program: 'echo-server', framing: 'ndjson', faults: [] };

let root = '';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'vite-bridge-'));
  await writeFile(join(root, 'index.html'), '<!doctype html><html><head><title>t</title></head><body><script type="module" src="/main.js"></script></body></html>');
  await writeFile(join(root, 'main.js'), 'document.title = "ok";');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const quiet = { logLevel: 'silent' as const, configFile: false as const, root };

function portOf(server: { httpServer: unknown }): number {
  return ((server.httpServer as { address(): AddressInfo }).address() as AddressInfo).port;
}

async function bridgeRoundTrip(port: number, token: string): Promise<void> {
  const origin = `http://127.0.0.1:${port}`;
  const transport = await WsTapTransport.start(`ws://127.0.0.1:${port}/bridge?token=${token}`, origin, ECHO);
  await transport.waitForEvent((event) => event.ev === 'spawn');
  const serverPid = transport.serverPid as number;
  transport.close();
  await waitUntil(() => !isAlive(serverPid), 4_000, 'the echo server to exit');
  expect(await tryUpgrade(`ws://127.0.0.1:${port}/bridge?token=${token}`, 'http://evil.example')).toMatchObject({ status: 403 });
}

describe('bridgePlugin', () => {
  it('gives the dev server a bridge, the token endpoint, and leaves HMR alone', { timeout: 30_000 }, async () => {
    const server: ViteDevServer = await createServer({
      ...quiet,
      plugins: [bridgePlugin({ programsOutDir: join(root, 'public', 'generated') })],
      server: { port: 0, host: '127.0.0.1', strictPort: false },
    });
    try {
      await server.listen();
      const port = portOf(server);
      const page = await fetch(`http://127.0.0.1:${port}/`);
      // The dev page carries the token as well: no other site may frame it.
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
      expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(await page.text()).not.toContain('mcp-bridge-token');
      const token = await bridgeTokenFor(`http://127.0.0.1:${port}/`);
      expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      await bridgeRoundTrip(port, token as string);

      // Vite's HMR socket (subprotocol vite-hmr, with Vite's own token) must still connect.
      const hmr = new WebSocket(`ws://127.0.0.1:${port}/?token=${server.config.webSocketToken}`, 'vite-hmr', { origin: `http://127.0.0.1:${port}` });
      const first = await new Promise<string>((resolve, reject) => {
        hmr.once('message', (data) => resolve(data.toString()));
        hmr.once('error', reject);
      });
      expect(JSON.parse(first)).toMatchObject({ type: 'connected' });
      hmr.terminate();
    } finally {
      await server.close();
    }
  });

  it('gives the preview server the same, reading the built index.html', { timeout: 30_000 }, async () => {
    const outDir = join(root, 'dist');
    await mkdir(outDir, { recursive: true });
    await writeFile(join(outDir, 'index.html'), '<!doctype html><html><head><title>built</title></head><body></body></html>');
    // The programs a build would have copied from public/generated.
    const { buildNodePrograms } = await import('../scripts/build-node-programs.ts');
    await buildNodePrograms(join(outDir, 'generated'));

    const server: PreviewServer = await preview({ ...quiet, build: { outDir }, plugins: [bridgePlugin()], preview: { port: 0, host: '127.0.0.1' } });
    try {
      const port = portOf(server);
      const res = await fetch(`http://127.0.0.1:${port}/some/route`, { headers: { accept: 'text/html' } });
      const html = await res.text();
      expect(html).toContain('<title>built</title>');
      expect(res.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
      const token = await bridgeTokenFor(`http://127.0.0.1:${port}/`);
      expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      await bridgeRoundTrip(port, token as string);
    } finally {
      await server.close();
    }
  });
});
