// The official MCP conformance suite for the 2026-07-28 revision
// (@modelcontextprotocol/conformance 0.2.0-alpha.12, pinned, in its own cache folder:
// scripts/ensure-conformance.sh 0.2.0-alpha.12; Node 24: scripts/ensure-node24.sh), with
// `--spec-version 2026-07-28 --suite all`: the 40 server scenarios it runs for that version
// outside the extensions and authorization (the default suite runs only 20 of them).
//
// Two runs, one process each, same fixtures:
//   * the reference: the official SDK 2.4.0 behind createMcpHandler (sdk-reference-server.ts),
//     measured first, so a failure of ours cannot be blamed on the suite;
//   * ours: the dual-era Streamable HTTP handler (src/protocol/http/dual-era-handler.ts) in front of
//     the ModernServer and, for handshake-era sessions, the FeatureServer — on a real socket.
// Each scenario's checks.json stays in test-results/conformance-2026/{sdk,ours}. A FAILURE check
// fails the test with its message and spec link; warnings are printed.

import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEraConformance } from '../../src/protocol/era/conformance-fixtures.ts';
import { createDualEraHttpHandler } from '../../src/protocol/http/dual-era-handler.ts';
import { nodeListener } from '../../server/http-node-adapter.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { ensure } from '../../tools/conformance-clients.ts';
import { count, problems, readResults, type ScenarioResult } from '../../tools/conformance-checks.ts';
import { startSdkReference } from './sdk-reference-server.ts';

const run = promisify(execFile);
const RESULTS = join(PROJECT_ROOT, 'test-results', 'conformance-2026');
const SERVER_SCENARIOS = 40;


let node24 = '';
let cli = '';

beforeAll(() => {
  node24 = ensure('ensure-node24.sh');
  cli = ensure('ensure-conformance.sh', '0.2.0-alpha.12');
}, 300_000);

/** Every server scenario for 2026-07-28 in one suite process against `url`. */
async function runSuite(url: string, name: string): Promise<ScenarioResult[]> {
  const out = join(RESULTS, name);
  rmSync(out, { recursive: true, force: true });
  // Asynchronous: the servers under test answer from this same process. A failing scenario makes
  // the CLI exit non-zero; the checks.json files say why, so the exit code itself is not the verdict.
  await run(node24, [cli, 'server', '--url', url, '--suite', 'all', '--spec-version', '2026-07-28', '-o', out], {
    cwd: PROJECT_ROOT,
    timeout: 240_000,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => {
    if (error.stdout === undefined) throw error;
  });
  return readResults(out, 'server-');
}

function verdict(result: ScenarioResult | undefined): string {
  if (result === undefined) return 'not run';
  const failed = count(result.checks, 'FAILURE');
  return failed > 0 ? `FAIL (${failed})` : `pass ${count(result.checks, 'SUCCESS')}${count(result.checks, 'WARNING') > 0 ? ` warn ${count(result.checks, 'WARNING')}` : ''}`;
}

describe('the MCP conformance suite 0.2.0-alpha.12, --spec-version 2026-07-28', () => {
  const era = createEraConformance();
  const handler = createDualEraHttpHandler({ createServer: (channel) => era.createLegacy(channel), modern: era.modern });
  const server = createServer(nodeListener(handler));
  let url = '';
  let reference: ScenarioResult[] = [];

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    handler.closeAll();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it(`the SDK 2.4.0 reference (createMcpHandler) passes all ${SERVER_SCENARIOS} server scenarios here`, async () => {
    const sdk = await startSdkReference();
    try {
      reference = await runSuite(sdk.url, 'sdk');
    } finally {
      await sdk.close();
    }
    expect(reference.map((result) => result.scenario)).toHaveLength(SERVER_SCENARIOS);
    expect(problems(reference, 'FAILURE')).toEqual([]);
  }, 300_000);

  it(`passes all ${SERVER_SCENARIOS} server scenarios against our dual-era server`, async () => {
    const ours = await runSuite(url, 'ours');
    const names = [...new Set([...reference, ...ours].map((result) => result.scenario))].sort();
    const width = Math.max(...names.map((name) => name.length));
    const table = names.map((name) => {
      const find = (results: ScenarioResult[]) => results.find((result) => result.scenario === name);
      return `${name.padEnd(width)}  ${verdict(find(reference)).padEnd(14)}  ${verdict(find(ours))}`;
    });
    console.log(`scenario${' '.repeat(width - 8)}  SDK 2.4.0       ours\n${table.join('\n')}`);
    for (const warning of problems(ours, 'WARNING')) console.warn(`warning: ${warning}`);
    expect(problems(ours, 'FAILURE')).toEqual([]);
    expect(ours.map((result) => result.scenario)).toHaveLength(SERVER_SCENARIOS);
    for (const result of ours) expect(count(result.checks, 'SUCCESS'), result.scenario).toBeGreaterThan(0);
  }, 300_000);
});
