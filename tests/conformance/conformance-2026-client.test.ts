// The official MCP conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12, pinned)
// with `--spec-version 2026-07-28`, client side: each scenario starts its own server and runs the
// project's dual-era client program (server/mcp-era-client.ts, era 'auto') against it. The suite
// runs under Node 24 (scripts/ensure-node24.sh, scripts/ensure-conformance.sh 0.2.0-alpha.12);
// each scenario's checks.json, stdout.txt and stderr.txt stay in test-results/conformance-2026/client/.
//
// A FAILURE check fails the test with its message and spec link; so does the client exiting
// non-zero (the suite counts that as a failed run too). Every scenario's server answers
// server/discover, so the client must also say it found the modern era.

import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { count, problems, readResults, summaryTable } from './checks.ts';

const run = promisify(execFile);
const RESULTS = join(PROJECT_ROOT, 'test-results', 'conformance-2026', 'client');
const SUITE_VERSION = '0.2.0-alpha.12';
const SCENARIOS = [
  'tools_call',
  'request-metadata',
  'sep-2322-client-request-state',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
  'json-schema-2020-12-preservation',
];

const ensure = (script: string, ...args: string[]) =>
  execFileSync('bash', [join(PROJECT_ROOT, 'scripts', script), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();

let node24 = '';
let cli = '';

beforeAll(() => {
  node24 = ensure('ensure-node24.sh');
  cli = ensure('ensure-conformance.sh', SUITE_VERSION);
}, 300_000);

describe(`the MCP conformance suite ${SUITE_VERSION}, client scenarios at 2026-07-28`, () => {
  it.each(SCENARIOS)('passes %s with the dual-era client', async (scenario) => {
    const out = join(RESULTS, scenario);
    rmSync(out, { recursive: true, force: true });
    // The suite appends the URL to this command (split on spaces) and sets MCP_CONFORMANCE_* variables.
    const command = `${process.execPath} --import tsx server/mcp-era-client.ts --era=auto`;
    const suite = await run(node24, [cli, 'client', '--command', command, '--scenario', scenario, '--spec-version', '2026-07-28', '-o', out], { cwd: PROJECT_ROOT, timeout: 120_000 }).catch(
      (error: { stdout?: string; stderr?: string }) => {
        // A failed scenario exits non-zero; its checks.json says why, below.
        if (error.stdout === undefined) throw error;
        return { stdout: error.stdout, stderr: error.stderr ?? '' };
      },
    );
    const results = readResults(out, '');
    console.log(`conformance 2026-07-28 client scenario ${scenario}\n${summaryTable(results)}`);
    for (const warning of problems(results, 'WARNING')) console.warn(`warning: ${warning}`);
    expect(results).toHaveLength(1);
    expect(problems(results, 'FAILURE')).toEqual([]);
    expect(count(results[0]!.checks, 'SUCCESS')).toBeGreaterThan(0);
    expect(suite.stderr).not.toMatch(/CLIENT (EXITED WITH ERROR|TIMED OUT)/);
    expect(clientLog(out)).toMatch(/: modern era, protocol 2026-07-28 \(server\/discover offered 2026-07-28\)/);
  }, 150_000);
});

/** What our client program wrote to stderr during the scenario. */
function clientLog(out: string): string {
  const folder = readdirSync(out).find((name) => !name.startsWith('.'));
  return folder === undefined ? '' : readFileSync(join(out, folder, 'stderr.txt'), 'utf8');
}
