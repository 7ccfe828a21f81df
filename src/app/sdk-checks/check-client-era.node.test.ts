// Check my client in the 2026-07-28 era: the learner's exercise-7 file (ModernSession) inside the
// app's DualEraClient in the learner worker, against SDK 2.4.0's serveStdio (modern only and both
// eras) and SDK 1.32 (where the probe must fall back to the handshake).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../tools/project-root.ts';
import type { ProtocolModules } from '../../sandbox/protocol-modules.ts';
import { LearnerDriver } from '../protocol/learner-driver.ts';
import { closeLearnerChannels, learnerWorkerFactory } from '../../../tools/testing/learner-worker-channel.ts';
import { checkEraClient, ERA_CHECK_CONFIG, eraClientChecks } from './check-client-era.ts';
import { builtProgramPath, programWire, protocolModules, stopAllWires } from '../../../tools/testing/node-wires.ts';

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');
const REFERENCE = 'src/protocol/era/stateless-client.ts';
const STARTER = 'exercises/07-stateless-era/starter.ts';

let modules: ProtocolModules;
beforeAll(async () => {
  modules = await protocolModules();
});
afterEach(() => {
  stopAllWires();
  closeLearnerChannels();
});

function eraDriver(code: string) {
  return new LearnerDriver({ code, file: 'stateless-client.ts', moduleId: '@protocol/era/stateless-client' }, learnerWorkerFactory(modules), {}, ERA_CHECK_CONFIG);
}

const sdk2 = (modern: boolean) => programWire(builtProgramPath('sdk2-echo-server'), modern ? ['--era=modern'] : []);
const statuses = (report: { tests: { id: string; status: string; message?: string }[] }) => report.tests.map((test) => [test.id, test.status, test.message]);

describe("Check my client, 2026-07-28: the learner's ModernSession inside DualEraClient (learner worker)", () => {
  it('the reference passes every check against SDK 2.4.0 in modern mode (2026-07-28 only)', async () => {
    const report = await checkEraClient(sdk2(true), eraDriver(read(REFERENCE)), { server: 'sdk2-modern' });
    expect(statuses(report)).toEqual(eraClientChecks('sdk2-modern').map((check) => [check.id, 'pass', undefined]));
    expect(report.tests.map((test) => test.id)).toEqual(['era-discover', 'list-tools', 'call-echo', 'era-unknown-tool', 'era-envelope', 'close']);
    expect(report.status).toBe('pass');
  });

  it('the reference passes every check against SDK 2.4.0 serving both eras (the probe picks 2026-07-28)', async () => {
    const report = await checkEraClient(sdk2(false), eraDriver(read(REFERENCE)), { server: 'sdk2' });
    expect(statuses(report)).toEqual(eraClientChecks('sdk2').map((check) => [check.id, 'pass', undefined]));
  });

  it('the reference falls back to the handshake against SDK 1.32 and passes there too', async () => {
    const report = await checkEraClient(programWire(builtProgramPath('sdk-echo-server')), eraDriver(read(REFERENCE)), { server: 'sdk1' });
    expect(statuses(report)).toEqual(eraClientChecks('sdk1').map((check) => [check.id, 'pass', undefined]));
    expect(report.tests[0]!.name).toContain('falls back');
  });

  it("the exercise-7 starter fails discover with its own TODO, naming the file and what connect() needs", async () => {
    const report = await checkEraClient(sdk2(true), eraDriver(read(STARTER)), { server: 'sdk2-modern', limitMs: 1500 });
    expect(report.status).toBe('fail');
    expect(report.tests[0]).toMatchObject({ id: 'era-discover', status: 'fail' });
    expect(report.tests[0]!.message).toMatch(/^connect\(\) threw Error: TODO: discover.*\(stateless-client\.ts line \d+\)/);
    expect(report.tests[0]!.message).toContain('exercise 7');
  });

  it('a file without ModernSession (an exercise-3 client) is refused at start, naming the missing export', async () => {
    const report = await checkEraClient(sdk2(true), eraDriver('export class McpClient {}\n'), { server: 'sdk2-modern', limitMs: 1500 });
    expect(report).toMatchObject({ status: 'error', tests: [] });
    expect(report.message).toMatch(/^Your exercise 7 client did not start: .*ModernSession/);
  });
});
