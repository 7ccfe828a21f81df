// Running the official MCP conformance suite's client scenarios against a client program, the
// way the suite groups them for a revision, and reading back what it wrote. Shared by the test that
// holds the project's clients to every scenario (tests/conformance/conformance-auth.test.ts) and by
// `npm run --silent conformance-sdks`, which runs the official SDKs' clients on the same scenarios
// and prints their numbers beside ours (scripts/conformance-sdks.ts).
//
//   * 2025-11-25 (suite 0.1.16, `--suite auth`): its 14 authorization scenarios, with
//     server/mcp-http-client.ts;
//   * 2026-07-28 (suite 0.2.0-alpha.12, `--requirements 2026-07-28`: every client scenario that
//     revision requires, 8 without authorization and its 25 auth/* scenarios), with the dual-era
//     client (server/mcp-era-client.ts). The suite runs a few extension scenarios too (client
//     credentials, DPoP, workload identity) and marks them "not scored".
// Each client is told one Client ID Metadata Document URL, the one the suite's basic-cimd expects
// (its fixture; nothing fetches it); pre-registered credentials come in MCP_CONFORMANCE_CONTEXT.
// Every client program is bundled once (esbuild), so each client run starts plain Node, not tsx.

import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { count, readResults, type ScenarioResult } from './conformance-checks.ts';
import { PROJECT_ROOT } from './project-root.ts';

const run = promisify(execFile);
const RESULTS = join(PROJECT_ROOT, 'test-results', 'conformance-auth');
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

export const PROGRAMS = { 'mcp-http-client': 'server/mcp-http-client.ts', 'mcp-era-client': 'server/mcp-era-client.ts', 'sdk-auth-client': 'server/sdk-auth-client.ts' } as const;
export type Program = keyof typeof PROGRAMS;

export interface Contender {
  label: string;
  program: Program;
  args: string;
}

export interface Revision {
  spec: '2025-11-25' | '2026-07-28';
  suite: string;
  /** How the suite is asked for the revision's scenarios. */
  select: string[];
  /** The scenarios that must be there (and pass, for our client). */
  expected: string[];
  ours: Contender;
}

const AUTH_CORE = [
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
].map((name) => `auth/${name}`);
const AUTH_2026 = [
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
].map((name) => `auth/${name}`);
const PLAIN_2026 = [
  'tools_call',
  'request-metadata',
  'sep-2322-client-request-state',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
  'json-schema-2020-12-preservation',
];

export const REVISIONS: Revision[] = [
  { spec: '2025-11-25', suite: '0.1.16', select: ['--suite', 'auth'], expected: AUTH_CORE, ours: { label: 'ours', program: 'mcp-http-client', args: '' } },
  {
    spec: '2026-07-28',
    suite: '0.2.0-alpha.12',
    select: ['--requirements', '2026-07-28'],
    expected: [...PLAIN_2026, ...AUTH_CORE, ...AUTH_2026],
    ours: { label: 'ours', program: 'mcp-era-client', args: '--era=auto' },
  },
];
export const SDKS: Contender[] = [
  { label: 'SDK 1.32.2', program: 'sdk-auth-client', args: '--sdk=1' },
  { label: 'SDK 2.4.0', program: 'sdk-auth-client', args: '--sdk=2' },
];

/** Run one of scripts/ensure-*.sh (it installs into the cache folder once) and give back the path it prints. */
export const ensure = (script: string, ...args: string[]): string =>
  execFileSync('bash', [join(PROJECT_ROOT, 'scripts', script), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();

/** Node 24, each pinned suite's CLI, and the bundled client programs. */
export interface SuiteTools {
  node24: string;
  cli: Record<string, string>;
  bundles: string;
  /** Remove the bundles. */
  dispose(): void;
}

/** Install what is missing (Node 24, the suites: into the cache folder) and bundle the clients. */
export async function prepareSuiteTools(programs: readonly Program[] = Object.keys(PROGRAMS) as Program[]): Promise<SuiteTools> {
  const node24 = ensure('ensure-node24.sh');
  const cli: Record<string, string> = {};
  for (const { suite } of REVISIONS) cli[suite] = ensure('ensure-conformance.sh', suite);
  const bundles = mkdtempSync(join(tmpdir(), 'mcp-playground-conformance-clients-'));
  await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: programs.map((out) => ({ in: PROGRAMS[out], out })),
    outdir: bundles,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    // The SDKs bundle CommonJS dependencies that call require() for Node built-ins.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: 'silent',
  });
  return { node24, cli, bundles, dispose: () => rmSync(bundles, { recursive: true, force: true }) };
}

export interface SuiteRun {
  scenarios: ScenarioResult[];
  /** Scenarios the suite ran but does not score for the revision, with its reason ("extension"). */
  notScored: Map<string, string>;
}

/** One suite run of `contender` over the revision's scenarios. */
export async function runSuite(tools: SuiteTools, revision: Revision, contender: Contender): Promise<SuiteRun> {
  const out = join(RESULTS, revision.spec, contender.label.replace(/[^a-z0-9.]+/gi, '-'));
  rmSync(out, { recursive: true, force: true });
  // The suite appends the URL to this command (split on spaces) and sets MCP_CONFORMANCE_* variables.
  const command = `${process.execPath} ${join(tools.bundles, `${contender.program}.mjs`)} ${contender.args} --client-metadata-url=${CIMD_URL}`;
  const { stdout } = await run(tools.node24, [tools.cli[revision.suite]!, 'client', '--command', command, ...revision.select, '-o', out], {
    cwd: PROJECT_ROOT,
    timeout: 240_000,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => {
    // A failed scenario makes the suite exit non-zero; its checks.json says why.
    if (error.stdout === undefined) throw error;
    return { stdout: error.stdout };
  });
  const notScored = new Map([...stdout.matchAll(/^\s+[✓✗] (\S+) \(([^)]+)\)$/gm)].map((match) => [match[1]!, match[2]!]));
  // auth/* scenarios are written one folder down, under auth/.
  const auth = readResults(join(out, 'auth'), '').map((result) => ({ ...result, scenario: `auth/${result.scenario}` }));
  return { scenarios: [...readResults(out, ''), ...auth], notScored };
}

export const passed = (run: ScenarioResult | undefined) => run !== undefined && count(run.checks, 'FAILURE') === 0 && count(run.checks, 'SUCCESS') > 0;

export function comparison(revision: Revision, runs: [Contender, SuiteRun][]): string {
  const width = Math.max(...revision.expected.map((name) => name.length));
  const header = `${'scenario'.padEnd(width)}  ${runs.map(([contender]) => contender.label.padEnd(11)).join('  ')}`;
  const rows = revision.expected.map((scenario) => {
    const cells = runs.map(([, suiteRun]) => {
      const found = suiteRun.scenarios.find((item) => item.scenario === scenario);
      return (found === undefined ? 'not run' : passed(found) ? 'pass' : `FAIL (${count(found.checks, 'FAILURE')})`).padEnd(11);
    });
    return `${scenario.padEnd(width)}  ${cells.join('  ')}`;
  });
  const totals = runs.map(([, suiteRun]) => `${revision.expected.filter((scenario) => passed(suiteRun.scenarios.find((item) => item.scenario === scenario))).length}/${revision.expected.length}`.padEnd(11));
  return [header, ...rows, `${'passed'.padEnd(width)}  ${totals.join('  ')}`].join('\n');
}
