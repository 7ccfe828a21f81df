// The learner's command line, run as a learner runs it (a child process), on the engine's fixture.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../tools/project-root.ts';

const FIXTURES = join(PROJECT_ROOT, 'tests/exercise-engine/fixtures/exercises');
const TSX = join(PROJECT_ROOT, 'node_modules/.bin/tsx');

function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, ['scripts/exercise-cli.ts', ...args, '--dir', FIXTURES], { cwd: PROJECT_ROOT, env: { ...process.env, FORCE_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);
const scratch = mkdtempSync(join(tmpdir(), 'exercise-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Each check starts tsx and a whole Vitest in a child process, and they run side by side: on a busy
// two-core machine one can take many seconds of waiting for a core. Generous limits, not sleeps.
const CLI_TIMEOUT_MS = 90_000;

describe.concurrent('npm run exercise', { timeout: CLI_TIMEOUT_MS }, () => {
  it('lists the exercises with their titles', async () => {
    const { code, stdout } = await cli('list');
    expect(code).toBe(0);
    expect(stdout).toBe('01-ping  Ping (engine fixture)\n');
  });

  it('check --solution: every test passes, exit 0, last line "N passed, 0 failed"', async () => {
    const { code, stdout } = await cli('check', '01-ping', '--solution');
    expect(stdout).toBe(
      ['✓ Building a ping › builds a JSON-RPC request', '✓ Building a ping › keeps id 0, which is a valid id', '✓ Waiting for the answer › resolves with the value', '3 passed, 0 failed', ''].join('\n'),
    );
    expect(code).toBe(0);
  }, CLI_TIMEOUT_MS);

  it('check on the starter: each failure with its message indented, exit 1', async () => {
    const { code, stdout } = await cli('check', '01-ping');
    expect(code).toBe(1);
    expect(stdout).toContain('✗ Building a ping › builds a JSON-RPC request\n    makePing(1) is not implemented yet\n');
    expect(lastLine(stdout)).toBe('0 passed, 3 failed');
  }, CLI_TIMEOUT_MS);

  it('check <file>: a wrong answer shows the diff, in plain text', async () => {
    const wrong = join(scratch, 'wrong.ts');
    writeFileSync(wrong, readFileSync(join(FIXTURES, '01-ping/solution.ts'), 'utf8').replace("'ping'", "'pong'"));
    const { code, stdout } = await cli('check', '01-ping', wrong);
    expect(code).toBe(1);
    expect(stdout).toContain('    +   "method": "pong",');
    expect(stdout).not.toMatch(/\u001b\[/);
    expect(lastLine(stdout)).toBe('2 passed, 1 failed');
  }, CLI_TIMEOUT_MS);

  it('a file that does not compile counts as a failure', async () => {
    const broken = join(scratch, 'broken.ts');
    writeFileSync(broken, 'export function makePing( {\n');
    const { code, stdout } = await cli('check', '01-ping', broken);
    expect(code).toBe(1);
    expect(stdout).toContain('could not run');
    expect(lastLine(stdout)).toBe('0 passed, 1 failed');
  }, CLI_TIMEOUT_MS);

  it('an unknown id or a missing file is a usage error: exit 2 and a clear message', async () => {
    const unknown = await cli('check', '99-nope');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("exercise: unknown exercise '99-nope' (known: 01-ping)\n");
    const missing = await cli('check', '01-ping', join(scratch, 'missing.ts'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^exercise: no such file: .*missing\.ts\n$/);
    const none = await cli('frobnicate');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage:');
  });
});
