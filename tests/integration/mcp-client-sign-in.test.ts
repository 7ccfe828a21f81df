// `npm run --silent mcp-client URL` against a server that asks for authorization, as a person at
// a terminal meets it: the client prints an authorization URL, the person opens it in a browser
// (here: a fetch that follows redirects, as a browser does), the authorization server sends the
// browser back to the client's listener on 127.0.0.1, and the client goes on with a token.
// The servers are the official conformance suite's (0.1.16, auth/metadata-default), started in
// its interactive mode: a protected MCP server and an authorization server that approves at once.

import { join } from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { ensure } from '../../tools/conformance-clients.ts';
import { killAllPrograms, RunningProgram } from './child-transport.ts';

afterEach(() => killAllPrograms());

let node24 = '';
let cli = '';

beforeAll(() => {
  node24 = ensure('ensure-node24.sh');
  cli = ensure('ensure-conformance.sh');
}, 300_000);

it('prints where to sign in, takes the browser back on 127.0.0.1, and goes on with the token', async () => {
  const suite = new RunningProgram(node24, [cli, 'client', '--scenario', 'auth/metadata-default']);
  await suite.waitFor(() => /Server URL: (\S+)/.test(suite.stdout.toString()), 'the suite to print its server URL', 60_000);
  const serverUrl = /Server URL: (\S+)/.exec(suite.stdout.toString())![1]!;

  const client = new RunningProgram(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'server', 'mcp-client.ts'), serverUrl]);
  await client.waitFor(() => /open this URL in your browser[^\n]*\n(\S+)/.test(client.stderr), 'the client to print the sign-in URL', 60_000);
  const signInUrl = /open this URL in your browser[^\n]*\n(\S+)/.exec(client.stderr)![1]!;
  expect(new URL(signInUrl).searchParams.get('code_challenge_method')).toBe('S256');
  const redirectUri = new URL(new URL(signInUrl).searchParams.get('redirect_uri')!);
  expect(redirectUri.hostname).toBe('127.0.0.1');

  // The person's browser: the authorization server answers with a redirect to the client's listener.
  const landed = await fetch(signInUrl);
  expect(landed.url.startsWith(redirectUri.href)).toBe(true);
  expect(landed.status).toBe(200);
  expect(await landed.text()).toContain('Signed in');

  const { code } = await client.closed;
  expect(client.stderr).toMatch(/authorized: \S+ gave a token for http:\/\/localhost:\d+\/mcp/);
  expect(client.stdout.toString()).toMatch(/^tools: test-tool$/m);
  expect(client.stdout.toString()).toMatch(/^test-tool \{\} → ok: test$/m);
  expect(code).toBe(0);
}, 150_000);
