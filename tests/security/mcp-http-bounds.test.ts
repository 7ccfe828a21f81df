// Issue 22: `mcp-http` had no cap or expiry on sessions or SSE streams: 30,000 sessions took it
// from 79 to 143 MiB, never freed, and 1,000 open streams held 1,029 descriptors with no timeout.
// Here the real program (public/generated/mcp-http.mjs, what the bridge spawns) with its default
// session cap (1000) and a short --stream-idle-ms takes the same load over real sockets.
//
// The bounds this test states:
//   * memory: RSS grows by at most 16 MiB from 10,000 to 30,000 sessions (the cap keeps 1000);
//   * descriptors: once the 1,000 streams have gone idle past --stream-idle-ms, the server holds
//     at most its own count before the load plus 64 (counted in /proc/PID/fd).
// And its origin rule: another local app's page is a foreign origin.
// No assertion on time: the waits are on conditions, with generous limits; the numbers measured
// are printed as [measured].

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { killAllPrograms, RunningProgram } from '../integration/child-transport.ts';

const PROGRAM = resolve(PROJECT_ROOT, 'public/generated/mcp-http.mjs');
const SESSIONS = 30_000;
const STREAMS = 1_000;
const STREAM_IDLE_MS = 1_000;
const RSS_GROWTH_BOUND_MIB = 16;
const FD_MARGIN = 64;

let server: RunningProgram;
let port: number;
let pid: number;

beforeAll(async () => {
  // tests/global-setup.ts builds it before any file runs.
  if (!existsSync(PROGRAM)) throw new Error(`${PROGRAM} is missing: npx tsx scripts/build-node-programs.ts`);
  server = new RunningProgram(process.execPath, [PROGRAM, `--stream-idle-ms=${STREAM_IDLE_MS}`]);
  await server.waitFor(() => server.stdout.includes('\n'), 'mcp-http to print its URL', 30_000);
  port = Number(new URL(server.stdout.toString('utf8').trim()).port);
  pid = server.child.pid as number;
}, 60_000);

afterAll(async () => {
  await killAllPrograms();
});

const rssMiB = (): number => Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const openFds = (): number => readdirSync(`/proc/${pid}/fd`).length;

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'load', version: '1' } } });
const HEADERS = { host: '127.0.0.1', accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** One POST; resolves with the status and the session id it named. */
function post(agent: Agent, body: string, headers: Record<string, string> = {}): Promise<{ status: number; session: string | undefined }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers: { ...HEADERS, ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => done({ status: res.statusCode ?? 0, session: res.headers['mcp-session-id'] as string | undefined }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** `count` initialize requests over 8 kept-alive connections; the session ids in order. */
async function initializeMany(agent: Agent, count: number): Promise<string[]> {
  const ids: string[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const index = next++;
        const { status, session } = await post(agent, INITIALIZE);
        if (status !== 200 || session === undefined) throw new Error(`initialize ${index} answered ${status}`);
        ids[index] = session;
      }
    }),
  );
  return ids;
}

describe('mcp-http admits only its own origin unless told otherwise', () => {
  it('another local page (http://localhost:5173, http://127.0.0.1:OTHER) gets 403; its own origin and no Origin get 200', async () => {
    const agent = new Agent({ keepAlive: false });
    const status = async (origin?: string) => (await post(agent, INITIALIZE, origin === undefined ? {} : { origin })).status;
    expect(await status('http://localhost:5173')).toBe(403);
    expect(await status(`http://127.0.0.1:${port + 1}`)).toBe(403);
    expect(await status('http://evil.example')).toBe(403);
    expect(await status(`http://127.0.0.1:${port}`)).toBe(200);
    expect(await status(`http://localhost:${port}`)).toBe(200);
    expect(await status()).toBe(200);
  });
});

describe('mcp-http under load stays within its bounds', () => {
  let lastSessions: string[] = [];
  let fdsBefore = 0;

  it(`${SESSIONS} sessions: RSS grows at most ${RSS_GROWTH_BOUND_MIB} MiB from 10,000 to 30,000; the least recently used are ended`, async () => {
    fdsBefore = openFds();
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const rssStart = rssMiB();
    const first = await initializeMany(agent, 10_000);
    const rss10k = rssMiB();
    const rest = await initializeMany(agent, SESSIONS - 10_000);
    const rss30k = rssMiB();
    console.log(`[measured] mcp-http RSS: ${rssStart.toFixed(1)} MiB at start, ${rss10k.toFixed(1)} MiB after 10,000 sessions, ${rss30k.toFixed(1)} MiB after 30,000 (growth 10k->30k: ${(rss30k - rss10k).toFixed(1)} MiB)`);
    expect(rss30k - rss10k).toBeLessThanOrEqual(RSS_GROWTH_BOUND_MIB);
    // The cap (default 1000): the first session is gone, the latest are served.
    expect((await post(agent, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { 'mcp-session-id': first[0]! })).status).toBe(404);
    lastSessions = rest.slice(-STREAMS);
    expect((await post(agent, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { 'mcp-session-id': lastSessions.at(-1)! })).status).toBe(200);
    agent.destroy();
  }, 600_000);

  it(`${STREAMS} open streams: once idle past --stream-idle-ms the server is back within ${FD_MARGIN} descriptors of its count before the load`, async () => {
    expect(lastSessions).toHaveLength(STREAMS);
    const opened: Array<Promise<void>> = [];
    let open = 0;
    for (const session of lastSessions) {
      opened.push(
        new Promise((done, fail) => {
          // One connection per stream, as a browser tab holds one; closed when the server ends it.
          const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'GET', agent: false, headers: { host: '127.0.0.1', accept: 'text/event-stream', 'mcp-session-id': session, connection: 'close' } }, (res) => {
            if (res.statusCode !== 200) return fail(new Error(`GET answered ${res.statusCode}`));
            open++;
            res.resume();
            res.on('close', () => done());
          });
          req.on('error', fail);
          req.end();
        }),
      );
    }
    let peak = 0;
    const deadline = Date.now() + 120_000;
    const waitFor = async (condition: () => boolean, what: string) => {
      while (!condition()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${openFds()} descriptors open (peak ${peak})`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    // Every stream answered; the peak is read while they are open (some may already be closing).
    await waitFor(() => {
      peak = Math.max(peak, openFds());
      return open === STREAMS;
    }, 'every stream to open');
    await waitFor(() => openFds() <= fdsBefore + FD_MARGIN, 'the server to close the idle streams');
    const after = openFds();
    // Every stream the server closed ended on the client too.
    await Promise.all(opened);
    console.log(`[measured] mcp-http descriptors: ${fdsBefore} before the load, peak ${peak} with the streams opening, ${after} after they went idle (bound ${fdsBefore + FD_MARGIN})`);
    expect(after).toBeLessThanOrEqual(fdsBefore + FD_MARGIN);
  }, 300_000);
});
