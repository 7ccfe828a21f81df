// `npm start`'s server on a free loopback port, with a tiny fake dist/ (no vite build here): the
// page, its meta tags and token endpoint in both modes, the bridge on the same port, and the CLI's clean shutdown.

import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildNodePrograms } from '../../scripts/build-node-programs.ts';
import { detectLearnerSandbox } from '../../server/learner-sandbox.ts';
import { appBuildIsStale, parseStartArgs, startServer, type RunningServer } from '../../server/start.ts';
import { isAlive, tryUpgrade, waitUntil, WsTapTransport } from './ws-tap-transport.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { bridgeTokenFor } from '../support/bridge-token.ts';

const INDEX = '<!doctype html>\n<html>\n  <head>\n    <title>fake</title>\n  </head>\n  <body>fake app</body>\n</html>\n';
const SHARED_META = '<meta name="mcp-bridge-shared" content="1">';

let base: string;
let distDir: string;
const servers: RunningServer[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'mcp-start-'));
  distDir = join(base, 'dist');
  await mkdir(join(distDir, 'assets'), { recursive: true });
  await writeFile(join(distDir, 'index.html'), INDEX);
  await writeFile(join(distDir, 'assets', 'main.js'), 'export {}');
  await buildNodePrograms(join(distDir, 'generated'));
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function serve(options: Partial<Parameters<typeof startServer>[0]> = {}): Promise<RunningServer> {
  const running = await startServer({ port: 0, host: '127.0.0.1', distDir, skipBuild: true, log: () => {}, ...options });
  servers.push(running);
  return running;
}

async function page(url: string): Promise<{ status: number; html: string; headers: Headers }> {
  const res = await fetch(url);
  return { status: res.status, html: await res.text(), headers: res.headers };
}

const ECHO = { type: 'start', program: 'echo-server', framing: 'ndjson', faults: [] };

describe('startServer, loopback mode', () => {
  it('serves the page with the token injected, isolated, and on the URL it reports', async () => {
    const running = await serve();
    expect(running.url).toBe(`http://127.0.0.1:${running.port}/`);
    expect(running.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(running.joinUrls).toEqual([]);
    for (const path of ['', 'lesson/1', '?token=anything']) {
      const { status, html, headers } = await page(running.url + path);
      expect(status).toBe(200);
      expect(html).not.toContain(running.token);
      expect(await bridgeTokenFor(running.url + path)).toBe(running.token);
      expect(html).not.toContain(SHARED_META);
      expect(headers.get('cross-origin-embedder-policy')).toBe('require-corp');
      expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
    }
    expect((await page(`${running.url}generated/tap.mjs`)).headers.get('content-type')).toContain('text/javascript');
  });

  it('withholds the token from a page requested under another host name (DNS rebinding)', async () => {
    const running = await serve();
    const html = await new Promise<string>((resolvePage, reject) => {
      const req = request({ host: '127.0.0.1', port: running.port, path: '/', headers: { host: `rebound.example:${running.port}` } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolvePage(body));
      });
      req.on('error', reject);
      req.end();
    });
    expect(html).toContain('fake app');
    expect(html).not.toContain(running.token);
    const answer = await new Promise<string>((resolveAnswer, reject) => {
      const headers = { host: `rebound.example:${running.port}`, 'x-mcp-bridge-token-request': '1' };
      const req = request({ host: '127.0.0.1', port: running.port, path: '/__bridge/token', headers }, (res) => {
        let body = `${res.statusCode} `;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolveAnswer(body));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.startsWith('403 ')).toBe(true);
    expect(answer).not.toContain(running.token);
  });

  it('runs the bridge on the same port, for the page origins only', async () => {
    const running = await serve();
    const bridgeUrl = `ws://127.0.0.1:${running.port}/bridge?token=${running.token}`;
    for (const origin of [`http://127.0.0.1:${running.port}`, `http://localhost:${running.port}`]) {
      const transport = await WsTapTransport.start(bridgeUrl, origin, ECHO);
      await transport.waitForEvent((event) => event.ev === 'spawn');
      transport.close();
    }
    expect(await tryUpgrade(bridgeUrl, `http://127.0.0.1:${running.port + 1}`)).toMatchObject({ kind: 'rejected', status: 403 });
    expect(await tryUpgrade(`ws://127.0.0.1:${running.port}/elsewhere`, `http://127.0.0.1:${running.port}`)).toMatchObject({
      kind: 'rejected',
      status: 404,
    });
  });

  it('close() ends the bridge processes and stops listening', async () => {
    const running = await serve();
    const transport = await WsTapTransport.start(`ws://127.0.0.1:${running.port}/bridge?token=${running.token}`, `http://127.0.0.1:${running.port}`, ECHO);
    await transport.waitForEvent((event) => event.ev === 'spawn');
    // The bridge runs the tap in-process: the server is its only process, the one the spawn event names.
    expect(running.bridge.serverPids).toEqual([transport.serverPid]);
    const serverPid = transport.serverPid as number;
    expect(isAlive(serverPid)).toBe(true);
    await running.close();
    expect(running.bridge.activeProcesses).toBe(0);
    await waitUntil(() => !isAlive(serverPid), 1_000, 'the server to be gone');
    await expect(fetch(running.url)).rejects.toThrow();
  });

  it('refuses to bind beyond loopback unless shared', async () => {
    await expect(startServer({ port: 0, host: '0.0.0.0', distDir, skipBuild: true, log: () => {} })).rejects.toThrow(/shared mode/);
  });
});

describe('startServer, shared (--host) mode', () => {
  it("gives the token to a join link and to the instructor's own machine (here: loopback), and marks the bridge shared", async () => {
    const running = await serve({ shared: true });
    expect(running.joinUrls).toEqual([`http://127.0.0.1:${running.port}/?token=${running.token}`]);

    // The instructor's page on their own machine has the bridge without the link (an attendee's
    // machine, another address, does not: server/bridge-token-endpoint.test.ts).
    const plain = await page(running.url);
    expect(await bridgeTokenFor(running.url)).toBe(running.token);
    expect(plain.html).toContain(SHARED_META);

    const joined = await page(running.joinUrls[0] as string);
    expect(await bridgeTokenFor(running.joinUrls[0] as string)).toBe(running.token);
    expect(joined.html).toContain(SHARED_META);
  });

  it('opens a workshop room: the join code hands out the bridge token, and a restart on the same file keeps the room', async () => {
    const roomFile = join(base, 'room.sqlite');
    const logs: string[] = [];
    const first = await serve({ shared: true, roomFile, log: (line) => logs.push(line) });
    const room = first.room!;
    expect(room.joinUrls()).toEqual([`http://127.0.0.1:${first.port}/#join`]);
    const origin = `http://127.0.0.1:${first.port}`;
    const joined = await fetch(`${origin}/__room/join`, {
      method: 'POST',
      headers: { 'X-MCP-Room-Request': '1', 'Content-Type': 'application/json' },
      body: JSON.stringify({ code: room.joinCode.toLowerCase(), name: '韩梅梅' }),
    });
    const attendee = (await joined.json()) as { attendee: string; secret: string; bridgeToken: string };
    expect(attendee.bridgeToken).toBe(first.token);
    expect(logs).toContain('[room] "韩梅梅" joined (1 joined, 0 connected)');
    // The page is still served around the room's paths, and the room is not on a loopback-only server.
    expect((await page(first.url)).status).toBe(200);
    expect((await serve()).room).toBeNull();
    await first.close();

    const again = await serve({ shared: true, roomFile });
    expect(again.room!.joinCode).toBe(room.joinCode);
    expect(again.room!.snapshot().attendees.map((view) => view.name)).toEqual(['韩梅梅']);
  });

  it('lets a joined page start a server', async () => {
    const running = await serve({ shared: true });
    const transport = await WsTapTransport.start(`ws://127.0.0.1:${running.port}/bridge?token=${running.token}`, `http://127.0.0.1:${running.port}`, ECHO);
    await transport.waitForEvent((event) => event.ev === 'spawn');
  });
});

describe('learner code on the bridge', () => {
  const LEARNER_META = /<meta name="mcp-bridge-learner-code" content="([^"]+)">/;
  const learnerStart = { type: 'start', program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: { code: 'export class McpServer { handle() { return null; } }', file: 'server.ts' } };

  async function learnerRefusal(running: RunningServer): Promise<string> {
    const origin = running.url.replace(/\/$/, '');
    return WsTapTransport.start(`${origin.replace('http', 'ws')}/bridge?token=${running.token}`, origin, learnerStart).then(
      () => 'started',
      (error: Error) => error.message,
    );
  }

  it('is off by default: the page is told so, and the bridge refuses it', async () => {
    const running = await serve();
    expect((await page(running.url)).html.match(LEARNER_META)?.[1]).toBe('not-enabled');
    expect(await learnerRefusal(running)).toContain('--learner-code-in-node');
  });

  it('with --learner-code-in-node but no working sandbox: refused, and the page is told why', async () => {
    const logs: string[] = [];
    const running = await serve({ learnerCodeInNode: true, learnerSandbox: { ok: false, reason: 'no bwrap on this machine' }, log: (line) => logs.push(line) });
    expect((await page(running.url)).html.match(LEARNER_META)?.[1]).toBe('no-sandbox');
    expect(await learnerRefusal(running)).toContain('no working sandbox');
    expect(logs.join('\n')).toContain('no bwrap on this machine');
  });

  it('with --learner-code-in-node and the sandbox: runs it there', async () => {
    const running = await serve({ learnerCodeInNode: true });
    expect((await page(running.url)).html.match(LEARNER_META)?.[1]).toBe('sandboxed');
    expect(await learnerRefusal(running)).toBe('started');
  });

  it('finds no sandbox where there is no bwrap', async () => {
    const empty = await mkdtemp(join(base, 'no-tools-'));
    expect(await detectLearnerSandbox({ path: empty, systemFolders: [] })).toEqual({ ok: false, reason: expect.stringContaining('no bwrap on this machine') });
  });
});

describe('the CLI', () => {
  it('parses its options', () => {
    expect(parseStartArgs([])).toEqual({ kind: 'run', port: 5317, host: null, distDir: null, build: true, learnerCodeInNode: false, roomFile: null });
    expect(parseStartArgs(['--host', '--room=/tmp/w.sqlite'])).toMatchObject({ kind: 'run', host: '0.0.0.0', roomFile: '/tmp/w.sqlite' });
    expect(parseStartArgs(['--room=/tmp/w.sqlite'])).toEqual({ kind: 'usage-error', message: '--room needs --host: the workshop room lives on a shared bridge' });
    expect(parseStartArgs(['--learner-code-in-node'])).toMatchObject({ kind: 'run', learnerCodeInNode: true });
    expect(parseStartArgs(['--port=0', '--host'])).toMatchObject({ kind: 'run', port: 0, host: '0.0.0.0' });
    expect(parseStartArgs(['--port', '8080', '--host=192.168.1.5'])).toMatchObject({ port: 8080, host: '192.168.1.5' });
    expect(parseStartArgs(['--dist=/x', '--no-build'])).toMatchObject({ distDir: '/x', build: false });
    expect(parseStartArgs(['--port=99999']).kind).toBe('usage-error');
    expect(parseStartArgs(['--port=abc']).kind).toBe('usage-error');
    expect(parseStartArgs(['--verbose']).kind).toBe('usage-error');
    expect(parseStartArgs(['-h'])).toEqual({ kind: 'help' });
  });

  it('prints its URL, serves, and on SIGINT stops every process it started', async () => {
    const cli = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts', '--port=0', '--no-build', `--dist=${distDir}`], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((done) => cli.on('exit', (code) => done(code)));
    try {
      let out = '';
      cli.stdout.setEncoding('utf8');
      cli.stdout.on('data', (text: string) => (out += text));
      await waitUntil(() => /MCP Playground: http:\/\/127\.0\.0\.1:\d+\//.test(out), 15_000, 'the URL line');
      const url = (/MCP Playground: (\S+)/.exec(out) as RegExpExecArray)[1] as string;
      const token = (await bridgeTokenFor(url)) as string;
      expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const origin = new URL(url).origin;
      const transport = await WsTapTransport.start(`${origin.replace('http', 'ws')}/bridge?token=${token}`, origin, ECHO);
      await transport.waitForEvent((event) => event.ev === 'spawn');
      const serverPid = transport.serverPid as number;

      cli.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(await transport.closed).not.toBe(1000); // the server went away, not the echo server
      await waitUntil(() => !isAlive(serverPid), 1_000, 'the echo server to be gone');
    } finally {
      if (cli.exitCode === null) cli.kill('SIGKILL');
    }
  });
});

describe('appBuildIsStale', () => {
  it('is stale without a build, and when a source is newer than dist/index.html', async () => {
    const project = join(base, 'project');
    await mkdir(join(project, 'src', 'deep'), { recursive: true });
    await writeFile(join(project, 'index.html'), '<html></html>');
    await writeFile(join(project, 'src', 'deep', 'a.ts'), 'export {}');
    const dist = join(project, 'dist');
    expect(await appBuildIsStale(project, dist)).toBe(true);

    await mkdir(dist);
    await writeFile(join(dist, 'index.html'), '<html></html>');
    const past = new Date(Date.now() - 60_000);
    for (const path of ['index.html', 'src', 'src/deep', 'src/deep/a.ts']) await utimes(join(project, path), past, past);
    expect(await appBuildIsStale(project, dist)).toBe(false);

    await writeFile(join(project, 'src', 'deep', 'a.ts'), 'export const changed = 1');
    expect(await appBuildIsStale(project, dist)).toBe(true);
  });
});
