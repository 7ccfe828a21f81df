// "Your client" in an era run: the learner's exercise 7 file (a ModernSession) runs in the learner
// worker inside the project's DualEraClient and drives the era stepper, against the in-process
// dual-era echo server. The reference file pasted in (relative imports and all) runs each era to
// the end; the starter stops at connect() with its own TODO, so it is the learner's code that runs.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../tools/project-root.ts';
import type { ProtocolModules } from '../../sandbox/protocol-modules.ts';
import type { LearnerSource } from '../../sandbox/learner-worker-messages.ts';
import { eraConfig } from './era-runs.ts';
import { LearnerDriver } from './learner-driver.ts';
import { referenceRegisterRunner } from './reference-driver.ts';
import { StepperStore } from './stepper-store.ts';
import type { StepRecord } from './stepper-records.ts';
import { inProcessServerPort } from '../../../tools/testing/in-process-server.ts';
import { closeLearnerChannels, learnerWorkerFactory, protocolModules } from '../../../tools/testing/learner-worker-channel.ts';

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');
const eraSource = (code: string): LearnerSource => ({ code, file: 'stateless-client.ts', moduleId: '@protocol/era/stateless-client' });
const arrowsOf = (records: readonly StepRecord[]) => records.map((record) => record.arrows.map((arrow) => `${arrow.direction} ${arrow.kind} ${arrow.method ?? ''}`.trim()));

let modules: ProtocolModules;
beforeAll(async () => {
  modules = await protocolModules();
});
const stores: StepperStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose();
  closeLearnerChannels();
});

function stepperWith(source: LearnerSource, choice: 'modern' | 'probe', serverEra: 'dual' | 'legacy' = 'dual') {
  const stepper = new StepperStore({
    server: inProcessServerPort(),
    createDriver: (_kind, config) => new LearnerDriver(source, learnerWorkerFactory(modules), {}, config.eraClient),
    createRegisterRunner: () => referenceRegisterRunner,
    autoDelayMs: 0,
  });
  stepper.load({ ...eraConfig(choice, serverEra), client: 'learner' });
  stores.push(stepper);
  return stepper;
}

describe("the learner's exercise 7 file drives the era stepper from a worker", () => {
  it('2026-07-28: server/discover, tools/list and tools/call, each with the envelope, to the end', async () => {
    const stepper = stepperWith(eraSource(read('src/protocol/era/stateless-client.ts')), 'modern');
    await stepper.runToEnd();
    const { records, status } = stepper.getSnapshot();
    expect(status).toEqual({ status: 'done' });
    expect(arrowsOf(records).slice(0, 6)).toEqual([
      ['c2s request server/discover'],
      ['s2c response server/discover'],
      ['c2s request tools/list'],
      ['s2c response tools/list'],
      ['c2s request tools/call'],
      ['s2c response tools/call'],
    ]);
  });

  it('the probe against a legacy-only server falls back to the handshake on the same pipe', async () => {
    const stepper = stepperWith(eraSource(read('src/protocol/era/stateless-client.ts')), 'probe', 'legacy');
    await stepper.runToEnd();
    const { records, status } = stepper.getSnapshot();
    expect(status).toEqual({ status: 'done' });
    const methods = records.flatMap((record) => record.arrows.filter((arrow) => arrow.direction === 'c2s').map((arrow) => arrow.method));
    expect(methods.slice(0, 3)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
  });

  it("the starter is what runs: connect() fails with the starter's TODO and no request goes out", async () => {
    const stepper = stepperWith(eraSource(read('exercises/07-stateless-era/starter.ts')), 'modern');
    await stepper.runToEnd();
    const { records } = stepper.getSnapshot();
    expect(JSON.stringify(records)).toContain('TODO: discover');
    expect(records.flatMap((record) => record.arrows).filter((arrow) => arrow.direction === 'c2s' && arrow.kind === 'request')).toEqual([]);
  });
});
