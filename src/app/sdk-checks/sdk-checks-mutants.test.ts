// The proof that the SDK checks mean something: the chapter's failure modes, put back into the
// reference by the mutant descriptors in tests/mutants/, each fail a named check. The client runs
// in the learner worker's core; the server is loaded by the learner-server core, as in the page.

import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../tools/catalogue-node.ts';
import type { ProtocolModules } from '../../sandbox/protocol-modules.ts';
import { buildMutantRun, readReferenceSources } from '../../../tests/mutants/apply-mutant.ts';
import type { Mutant } from '../../../tests/mutants/mutant.ts';
import pairByArrivalOrder from '../../../tests/mutants/03-client/pair-by-arrival-order.ts';
import answersNotifications from '../../../tests/mutants/04-server/answers-notifications.ts';
import toolFailureAsRpcError from '../../../tests/mutants/04-server/tool-failure-as-rpc-error.ts';
import unknownToolAsIsError from '../../../tests/mutants/04-server/unknown-tool-as-iserror.ts';
import { LearnerDriver } from '../protocol/learner-driver.ts';
import { closeLearnerChannels, learnerWorkerFactory } from '../../../tools/testing/learner-worker-channel.ts';
import { checkClient } from './check-client.ts';
import { checkServer } from './check-server.ts';
import { builtProgramPath, learnerServerWire, programWire, protocolModules, stopAllWires } from '../../../tools/testing/node-wires.ts';

let modules: ProtocolModules;
let referenceSources: Record<string, string>;
beforeAll(async () => {
  modules = await protocolModules();
  referenceSources = readReferenceSources(PROJECT_ROOT);
});
afterEach(() => {
  stopAllWires();
  closeLearnerChannels();
});

function mutantRun(name: string, mutant: Mutant, solutionModule: string) {
  return buildMutantRun({ name, mutant, solutionModule, referenceSources, protocolModules: modules });
}

const failed = (report: { tests: { id: string; status: string }[] }) => report.tests.filter((test) => test.status !== 'pass').map((test) => test.id);

describe('Check my client catches a client that pairs responses by arrival order', () => {
  it('fails "in-flight" (and only that), with the swapped answers as the actual value', async () => {
    const run = mutantRun('03-client/pair-by-arrival-order', pairByArrivalOrder, 'src/protocol/client.ts');
    const driver = new LearnerDriver({ code: run.learnerSource, file: 'client.ts', moduleId: run.learnerModuleId }, learnerWorkerFactory(run.protocolModules));
    const report = await checkClient(programWire(builtProgramPath('sdk-echo-server')), driver);
    expect(report.status).toBe('fail');
    expect(failed(report)).toEqual(['in-flight']);
    const inFlight = report.tests.find((test) => test.id === 'in-flight')!;
    expect(inFlight.message).toMatch(/paired with requests by id/);
    expect(inFlight.actual).toContain('"tools"');
  });
});

describe('Check my server catches the chapter\'s server failure modes', () => {
  const cases: Array<[string, string, Mutant]> = [
    ['answers-notifications', 'nothing-stray', answersNotifications],
    ['unknown-tool-as-iserror', 'unknown-tool', unknownToolAsIsError],
    ['tool-failure-as-rpc-error', 'failing-tool', toolFailureAsRpcError],
  ];
  it.each(cases)('%s fails the check "%s"', async (name, check, mutant) => {
    const run = mutantRun(`04-server/${name}`, mutant, 'src/protocol/server.ts');
    const report = await checkServer(learnerServerWire(run.learnerSource, run.protocolModules));
    expect(report.status).toBe('fail');
    expect(failed(report)).toEqual([check]);
  });

  it('names the stray answer to notifications/initialized in the report', async () => {
    const run = mutantRun('04-server/answers-notifications', answersNotifications, 'src/protocol/server.ts');
    const report = await checkServer(learnerServerWire(run.learnerSource, run.protocolModules));
    const stray = report.tests.find((test) => test.id === 'nothing-stray')!;
    expect(stray.actual).toContain('"id":null');
    expect(stray.message).toMatch(/notification must never be answered/);
  });
});
