import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../tools/project-root.ts';
import type { ProtocolModules } from '../../sandbox/protocol-modules.ts';
import { LearnerDriver } from '../protocol/learner-driver.ts';
import { closeLearnerChannels, learnerWorkerFactory } from '../../../tools/testing/learner-worker-channel.ts';
import { checkClient, CLIENT_CHECKS, clientChecks } from './check-client.ts';
import { builtProgramPath, programWire, protocolModules, stopAllWires } from '../../../tools/testing/node-wires.ts';

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');

let modules: ProtocolModules;
beforeAll(async () => {
  modules = await protocolModules();
});
afterEach(() => {
  stopAllWires();
  closeLearnerChannels();
});

function learnerDriver(code: string) {
  return new LearnerDriver({ code, file: 'client.ts', moduleId: '@protocol/client' }, learnerWorkerFactory(modules));
}

describe("Check my client: the learner's client (in the learner worker) against the SDK-built server", () => {
  it('passes every check with the reference client, and the SDK server exits with code 0 after close', async () => {
    const report = await checkClient(programWire(builtProgramPath('sdk-echo-server')), learnerDriver(read('src/protocol/client.ts')));
    expect(report.tests.map((test) => [test.id, test.status, test.message])).toEqual(CLIENT_CHECKS.map((check) => [check.id, 'pass', undefined]));
    expect(report.status).toBe('pass');
  });

  it("reports the starter's TODO as the handshake failure and stops there", async () => {
    const report = await checkClient(programWire(builtProgramPath('sdk-echo-server')), learnerDriver(read('exercises/03-client/starter.ts')), { limitMs: 1000 });
    expect(report.tests[0]).toMatchObject({ id: 'handshake', status: 'fail' });
    expect(report.tests[0]!.message).toMatch(/^initialize\(\) threw Error: TODO: initialize\(\) \(client\.ts line \d+\)/);
  });

  it('is an error report, not a run, when the client does not even load', async () => {
    const report = await checkClient(programWire(builtProgramPath('sdk-echo-server')), learnerDriver('export class McpClient {\n  constructor( {\n}'));
    expect(report).toMatchObject({ status: 'error', tests: [] });
    expect(report.message).toMatch(/^Your client did not start: SyntaxError/);
  });
});

describe("Check my client against SDK 2.4.0's server (serveStdio)", () => {
  it('passes every check with the reference client when the server serves both eras; unknown tools are -32602 there', async () => {
    const report = await checkClient(programWire(builtProgramPath('sdk2-echo-server')), learnerDriver(read('src/protocol/client.ts')), { server: 'sdk2' });
    expect(report.tests.map((test) => [test.id, test.status, test.message])).toEqual(clientChecks('sdk2').map((check) => [check.id, 'pass', undefined]));
    expect(report.tests[0]!.name).toContain('sdk2-echo-server');
  });

  it('in modern mode (2026-07-28 only) the handshake-era client is refused with -32022, and the report says why there is no way in', async () => {
    // The product's own limit: the refusal comes at once, but the server has to start first, and a
    // 1.5 s limit was missed on a loaded machine (the report then said "timed out", not -32022).
    const report = await checkClient(programWire(builtProgramPath('sdk2-echo-server'), ['--era=modern']), learnerDriver(read('src/protocol/client.ts')), { server: 'sdk2-modern' });
    expect(report.tests[0]).toMatchObject({ id: 'handshake', status: 'fail' });
    expect(report.tests[0]!.message).toContain('[code -32022]');
    expect(report.tests[0]!.message).toContain('modern mode');
    expect(report.status).toBe('fail');
  });
});
