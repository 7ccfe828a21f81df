// The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, pinned) against
// the project's own code, under Node 24 (the suite needs Node >= 22; both come from the npm
// registry into a cache folder outside the project: scripts/ensure-node24.sh and
// scripts/ensure-conformance.sh).
//   * server: all 32 scenarios (`--suite all`; the default suite leaves two out) against the
//     conformance fixture set behind our Streamable HTTP handler, on a real socket on port 0;
//   * client: `initialize`, `tools_call`, `sse-retry` and `elicitation-sep1034-client-defaults`
//     run our McpClient (server/mcp-http-client.ts) against the suite's own servers.
// Each scenario's checks.json stays in test-results/conformance/. A FAILURE check fails the test
// with its message and spec link; warnings are printed (a scenario of only warnings passes).
// Authorization scenarios (auth/*): conformance-auth.test.ts.

import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConformanceServer } from '../../src/protocol/features/conformance-fixtures.ts';
import { createHttpHandler } from '../../src/protocol/http/server-handler.ts';
import { nodeListener } from '../../server/http-node-adapter.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { ensure } from '../../tools/conformance-clients.ts';
import { count, problems, readResults, summaryTable } from '../../tools/conformance-checks.ts';

const run = promisify(execFile);
const RESULTS = join(PROJECT_ROOT, 'test-results', 'conformance');
const SERVER_SCENARIOS = 32;
const CLIENT_SCENARIOS = ['initialize', 'tools_call', 'sse-retry', 'elicitation-sep1034-client-defaults'];


let node24 = '';
let cli = '';

beforeAll(() => {
  node24 = ensure('ensure-node24.sh');
  cli = ensure('ensure-conformance.sh');
}, 300_000);

describe('the MCP conformance suite 0.1.16', () => {
  const handler = createHttpHandler({ createServer: (channel) => createConformanceServer(channel) });
  const server = createServer(nodeListener(handler));
  let url = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    handler.closeAll();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it(`passes all ${SERVER_SCENARIOS} server scenarios against our server`, async () => {
    const out = join(RESULTS, 'server');
    rmSync(out, { recursive: true, force: true });
    // Asynchronous: the server under test answers from this same process.
    await run(node24, [cli, 'server', '--url', url, '--suite', 'all', '-o', out], { cwd: PROJECT_ROOT, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 });
    const results = readResults(out, 'server-');
    console.log(`conformance server scenarios\n${summaryTable(results)}`);
    for (const warning of problems(results, 'WARNING')) console.warn(`warning: ${warning}`);
    expect(problems(results, 'FAILURE')).toEqual([]);
    expect(results.map((result) => result.scenario)).toHaveLength(SERVER_SCENARIOS);
    for (const result of results) expect(count(result.checks, 'SUCCESS') + count(result.checks, 'WARNING'), result.scenario).toBeGreaterThan(0);
  }, 300_000);

  it.each(CLIENT_SCENARIOS)('passes the client scenario %s with our McpClient', async (scenario) => {
    const out = join(RESULTS, 'client', scenario);
    rmSync(out, { recursive: true, force: true });
    // The suite appends the URL to this command and names the scenario in MCP_CONFORMANCE_SCENARIO.
    const command = `"${process.execPath}" --import tsx server/mcp-http-client.ts`;
    await run(node24, [cli, 'client', '--command', command, '--scenario', scenario, '-o', out], { cwd: PROJECT_ROOT, timeout: 120_000 }).catch((error: { stdout?: string }) => {
      // A failed scenario exits non-zero; its checks.json says why, below.
      if (error.stdout === undefined) throw error;
    });
    const results = readResults(out, '');
    console.log(`conformance client scenario ${scenario}\n${summaryTable(results)}`);
    for (const warning of problems(results, 'WARNING')) console.warn(`warning: ${warning}`);
    expect(results).toHaveLength(1);
    expect(problems(results, 'FAILURE')).toEqual([]);
    expect(count(results[0]!.checks, 'SUCCESS')).toBeGreaterThan(0);
  }, 150_000);
});
