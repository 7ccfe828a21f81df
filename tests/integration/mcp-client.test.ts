// `npm run --silent mcp-client`: the dual-era client command, run as a learner runs it, against
// the project's own echo server both ways (stdio: a spawned server; HTTP: mcp-http's URL) and in
// every era. Outcomes only: the era it settled on, the tools it saw, each call's answer, its exit code.

import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { builtProgram, killAllPrograms, RunningProgram } from './child-transport.ts';

afterEach(() => killAllPrograms());

const TIMEOUT_MS = 120_000;

async function mcpClient(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const program = new RunningProgram(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'server', 'mcp-client.ts'), ...args]);
  const { code } = await program.closed;
  return { code, stdout: program.stdout.toString('utf8'), stderr: program.stderr };
}

async function startMcpHttp(...args: string[]): Promise<string> {
  // The built mcp-http sits beside the built echo server (tests/global-setup.ts builds both).
  const program = new RunningProgram(process.execPath, [join(dirname(builtProgram('echo-server')), 'mcp-http.mjs'), ...args]);
  await program.waitFor(() => /http:\/\/\S+\/mcp/.test(program.stdout.toString()), 'mcp-http to print its URL', 60_000);
  return /(http:\/\/\S+\/mcp)/.exec(program.stdout.toString())![1]!;
}

const ECHO_CALLS = ['echo {"text":"conformance"} → ok: conformance', 'add {"a":1,"b":1} → ok: 2', 'fail {} → tool error: '];

function expectSession(stdout: string, era: 'modern' | 'legacy'): void {
  const lines = stdout.trimEnd().split('\n');
  expect(lines[0]).toMatch(new RegExp(`^connected: ${era} era, protocol ${era === 'modern' ? '2026-07-28' : '2025-11-25'}, mcp-echo-server 1\\.0\\.0 `));
  expect(lines[1]).toBe(era === 'modern' ? 'tools: echo, add, delay_echo, fail, delete_file, greet' : 'tools: echo, add, delay_echo, fail, delete_file');
  for (const call of ECHO_CALLS) expect(lines.some((line) => line.startsWith(call))).toBe(true);
  // The modern era's greet asks for input (an MRTR round); the client answers it.
  if (era === 'modern') expect(lines).toContain('greet {} → ok: Hello, conformance!');
}

describe('npm run --silent mcp-client', () => {
  describe('stdio: a spawned echo server, newline-delimited JSON', () => {
    const server = ['--', process.execPath, builtProgram('echo-server')];
    it.each([
      ['auto', [], 'modern'],
      ['modern', [], 'modern'],
      ['legacy', [], 'legacy'],
      ['auto', ['--era=legacy'], 'legacy'], // a handshake-only server: the probe falls back
    ] as const)('--era=%s against echo-server %j: the %s era, every tool answered, exit 0', async (era, serverArgs, expected) => {
      const { code, stdout, stderr } = await mcpClient(`--era=${era}`, ...server, ...serverArgs);
      expect({ code, stderr: stderr.split('\n').filter((line) => line.startsWith('[mcp-client] failed')) }).toEqual({ code: 0, stderr: [] });
      expectSession(stdout, expected);
    }, TIMEOUT_MS);

    it('--era=modern against a handshake-only server fails, exit 1, and says why', async () => {
      const { code, stderr } = await mcpClient('--era=modern', ...server, '--era=legacy');
      expect(code).toBe(1);
      expect(stderr).toMatch(/\[mcp-client\] failed: /);
    }, TIMEOUT_MS);
  });

  describe('Streamable HTTP: mcp-http\'s URL', () => {
    it.each([
      ['auto', [], 'modern'],
      ['legacy', [], 'legacy'],
      ['modern', [], 'modern'],
      ['auto', ['--era=legacy'], 'legacy'],
    ] as const)('--era=%s against mcp-http %j: the %s era, every tool answered, exit 0', async (era, serverArgs, expected) => {
      const url = await startMcpHttp(...serverArgs);
      const { code, stdout, stderr } = await mcpClient(`--era=${era}`, url);
      expect({ code, stderr: stderr.split('\n').filter((line) => line.startsWith('[mcp-client] failed')) }).toEqual({ code: 0, stderr: [] });
      expectSession(stdout, expected);
    }, TIMEOUT_MS);
  });

  it('a usage error: exit 2, the usage on stderr, nothing on stdout', async () => {
    const { code, stdout, stderr } = await mcpClient('--era=2026');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('usage: npm run --silent mcp-client -- [--era=auto|legacy|modern] (URL | -- <server command> [args...])');
  }, TIMEOUT_MS);
});
