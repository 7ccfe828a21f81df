// The type check (`npm run typecheck`: browser, Node and test code under their own configs, then
// each exercise) as a file of the integration project, so `npm test` runs it beside the other Node
// files instead of before all of them. `npm test` was `typecheck && vitest run`: about 9 s on the
// clock of this 2-core machine with one core idle, ahead of a phase that leaves a core idle a
// tenth of the time anyway. tsc's own report is the failure message.

import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../tools/project-root.ts';

function typecheck(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'typecheck'], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

describe('the type check', () => {
  it('passes for every config: browser, Node, tests and each exercise (npm run typecheck)', async () => {
    const { code, output } = await typecheck();
    expect(code, `npm run typecheck failed:\n${output.slice(-6000)}`).toBe(0);
  });
});
