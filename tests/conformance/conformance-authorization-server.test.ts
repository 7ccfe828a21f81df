// The official conformance suite's authorization-server scenarios (0.2.0-alpha.12, the first with
// them) against `npm run auth-server`: its metadata, and a whole authorization code grant. The
// suite plays the client: it prints the authorization URL and waits for the browser to come back to
// its own listener on 127.0.0.1; here a fetch with a cookie jar plays the person who opens it and
// clicks Allow on the consent page.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { ensure } from '../../tools/conformance-clients.ts';
import { count, problems, readResults, summaryTable } from '../../tools/conformance-checks.ts';
import { consentInBrowser } from '../support/consenting-browser.ts';
import { killAllPrograms, RunningProgram } from '../integration/child-transport.ts';

const SUITE = '0.2.0-alpha.12';
const SCENARIOS = ['authorization-code-grant', 'authorization-server-metadata-endpoint'];

let node24 = '';
let cli = '';
const out = mkdtempSync(join(tmpdir(), 'mcp-playground-conformance-as-'));

beforeAll(() => {
  node24 = ensure('ensure-node24.sh');
  cli = ensure('ensure-conformance.sh', SUITE);
}, 300_000);

afterAll(() => {
  killAllPrograms();
  rmSync(out, { recursive: true, force: true });
});

/** A port nobody listens on now, for the suite's callback listener. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

it(`passes every authorization-server scenario of suite ${SUITE}, with no failure and no warning`, async () => {
  const port = await freePort();
  const callback = `http://127.0.0.1:${port}/callback`;
  const authServer = new RunningProgram(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'server', 'auth-server.ts'), '--client-id=conformance', `--redirect-uri=${callback}`]);
  await authServer.waitFor(() => authServer.stdout.toString().includes('\n'), 'the authorization server to print its issuer', 60_000);
  const issuer = authServer.stdout.toString().split('\n')[0]!;
  // The MCP server the token is for: any loopback endpoint (the authorization server issues for those only).
  const resource = 'http://127.0.0.1:3000/mcp';

  const suite = new RunningProgram(node24, [cli, 'authorization', '--url', issuer, '--client-id', 'conformance', '--resource', resource, '-p', String(port), '-o', out]);
  const urlLine = new RegExp(`^(${issuer.replace(/[.]/g, '\\.')}/auth\\?\\S+)$`, 'm');
  await suite.waitFor(() => urlLine.test(suite.stdout.toString()) || suite.child.exitCode !== null, 'the suite to print the authorization URL', 120_000);
  const authorizationUrl = urlLine.exec(suite.stdout.toString())?.[1];
  expect(authorizationUrl, suite.stdout.toString()).toBeDefined();

  const back = await consentInBrowser(authorizationUrl!);
  expect(back.startsWith(`${callback}?`)).toBe(true);
  expect((await fetch(back)).status).toBe(200); // the suite's listener takes the code
  await suite.closed;

  const results = readResults(out, 'authorization-server-');
  console.log(summaryTable(results));
  expect(results.map((result) => result.scenario).sort()).toEqual(SCENARIOS);
  expect(problems(results, 'FAILURE'), authServer.stderr).toEqual([]);
  expect(problems(results, 'WARNING')).toEqual([]);
  for (const result of results) expect(count(result.checks, 'SUCCESS'), result.scenario).toBeGreaterThan(0);
}, 240_000);
