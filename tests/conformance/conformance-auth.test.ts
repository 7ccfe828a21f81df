// The official MCP conformance suite's authorization scenarios (auth/*), client side: every one
// the pinned suites list, run against the project's two client programs, each of which meets a
// 401 with the whole flow of src/protocol/auth (headless: server/headless-authorization.ts).
//   * 2025-11-25 (suite 0.1.16): the 14 scenarios, with server/mcp-http-client.ts;
//   * 2026-07-28 (suite 0.2.0-alpha.12): its 25, with the dual-era client (server/mcp-era-client.ts).
// Each scenario's checks.json and the client's stderr stay in test-results/conformance-auth/; the
// scenarios of one revision run five at a time (Vitest's concurrency), each with its own servers.
// The client is told one Client ID Metadata Document URL, the one the suite's basic-cimd expects
// (its fixture; nothing fetches it); pre-registered credentials come in MCP_CONFORMANCE_CONTEXT.

import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { count, problems, readResults, summaryTable } from './checks.ts';

const run = promisify(execFile);
const RESULTS = join(PROJECT_ROOT, 'test-results', 'conformance-auth');
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

const CORE = [
  'metadata-default',
  'metadata-var1',
  'metadata-var2',
  'metadata-var3',
  'basic-cimd',
  'scope-from-www-authenticate',
  'scope-from-scopes-supported',
  'scope-omitted-when-undefined',
  'scope-step-up',
  'scope-retry-limit',
  'token-endpoint-auth-basic',
  'token-endpoint-auth-post',
  'token-endpoint-auth-none',
  'pre-registration',
];
const ONLY_2026 = [
  'resource-mismatch',
  'offline-access-scope',
  'offline-access-not-supported',
  'authorization-server-migration',
  'iss-supported',
  'iss-not-advertised',
  'iss-supported-missing',
  'iss-wrong-issuer',
  'iss-unexpected',
  'iss-normalized',
  'metadata-issuer-mismatch',
];

interface Revision {
  spec: '2025-11-25' | '2026-07-28';
  suite: string;
  scenarios: string[];
  /** The client program (its bundle's name) and its arguments. */
  client: { name: ClientName; args: string };
}

// The two programs, each bundled once (esbuild) so that the 39 runs start plain Node, not tsx.
const CLIENTS = { 'mcp-http-client': 'server/mcp-http-client.ts', 'mcp-era-client': 'server/mcp-era-client.ts' } as const;
type ClientName = keyof typeof CLIENTS;

const REVISIONS: Revision[] = [
  { spec: '2025-11-25', suite: '0.1.16', scenarios: CORE, client: { name: 'mcp-http-client', args: '' } },
  { spec: '2026-07-28', suite: '0.2.0-alpha.12', scenarios: [...CORE, ...ONLY_2026], client: { name: 'mcp-era-client', args: '--era=auto' } },
];

const ensure = (script: string, ...args: string[]) =>
  execFileSync('bash', [join(PROJECT_ROOT, 'scripts', script), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();

let node24 = '';
const cli: Record<string, string> = {};
const bundles = mkdtempSync(join(tmpdir(), 'mcp-playground-auth-clients-'));

beforeAll(async () => {
  node24 = ensure('ensure-node24.sh');
  for (const { suite } of REVISIONS) cli[suite] = ensure('ensure-conformance.sh', suite);
  await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: Object.entries(CLIENTS).map(([out, source]) => ({ in: source, out })),
    outdir: bundles,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
  });
}, 300_000);

afterAll(() => rmSync(bundles, { recursive: true, force: true }));

describe.each(REVISIONS)('the conformance suite $suite, authorization at $spec', ({ spec, suite, scenarios, client }) => {
  it('runs every client auth scenario the suite lists for the revision', async () => {
    const { stdout } = await run(node24, [cli[suite]!, 'list', '--client', '--spec-version', spec], { cwd: PROJECT_ROOT });
    const listed = [...stdout.matchAll(/auth\/([a-z0-9-]+)/g)].map((match) => match[1]!);
    // The suite's own filter keeps a few older-revision scenarios out of its list when asked for one revision.
    expect(new Set(listed.filter((name) => !/^(2025-03-26|client-credentials|cross-app|enterprise|dpop|wif)/.test(name)))).toEqual(new Set(scenarios));
  });

  it.concurrent.each(scenarios)('passes auth/%s', async (scenario) => {
    const out = join(RESULTS, spec, scenario);
    rmSync(out, { recursive: true, force: true });
    // The suite appends the URL to this command (split on spaces) and sets MCP_CONFORMANCE_* variables.
    const command = `${process.execPath} ${join(bundles, `${client.name}.mjs`)} ${client.args} --client-metadata-url=${CIMD_URL}`;
    await run(node24, [cli[suite]!, 'client', '--command', command, '--scenario', `auth/${scenario}`, '--spec-version', spec, '-o', out], { cwd: PROJECT_ROOT, timeout: 120_000 }).catch(
      (error: { stdout?: string }) => {
        // A failed scenario exits non-zero; its checks.json says why, below.
        if (error.stdout === undefined) throw error;
      },
    );
    const results = readResults(join(out, 'auth'), '');
    console.log(`conformance ${spec} auth/${scenario}\n${summaryTable(results)}\n${clientLog(join(out, 'auth'))}`);
    expect(results).toHaveLength(1);
    expect(problems(results, 'FAILURE')).toEqual([]);
    expect(problems(results, 'WARNING')).toEqual([]);
    expect(count(results[0]!.checks, 'SUCCESS')).toBeGreaterThan(0);
  }, 150_000);
});

/** What our client program wrote to stderr during the scenario. */
function clientLog(dir: string): string {
  const folder = readdirSync(dir).find((name) => !name.startsWith('.'));
  return folder === undefined ? '' : readFileSync(join(dir, folder, 'stderr.txt'), 'utf8');
}
