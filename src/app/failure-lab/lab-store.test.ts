import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../tools/catalogue-node.ts';
import { LabStore } from './lab-store.ts';
import { runLearnerReader } from '../protocol/learner-driver.ts';
import { ReferenceDriver, referenceRegisterRunner } from '../protocol/reference-driver.ts';
import { StepperStore } from '../protocol/stepper-store.ts';
import { inProcessServerPort } from '../../../tools/testing/in-process-server.ts';
import { closeLearnerChannels, learnerWorkerFactory, protocolModules } from '../../../tools/testing/learner-worker-channel.ts';

const stores: StepperStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose();
  closeLearnerChannels();
});

async function makeLab(readerSource: string) {
  const modules = await protocolModules();
  const stepper = new StepperStore({ server: inProcessServerPort(), createDriver: () => new ReferenceDriver(), createRegisterRunner: () => referenceRegisterRunner, autoDelayMs: 0 });
  stores.push(stepper);
  const lab = new LabStore({
    stepper,
    learnerReader: (framing, chunks) => runLearnerReader({ code: readerSource, file: 'frames.ts', moduleId: '@protocol/framing/index' }, framing, chunks, learnerWorkerFactory(modules)),
  });
  return { lab, stepper };
}

describe('LabStore', () => {
  it('runs the chosen variant on the shared stepper and keeps the verdict per card', async () => {
    const { lab, stepper } = await makeLab('');
    lab.selectVariant('stdout-log', 'ndjson');
    const running = lab.run('stdout-log', 'reference');
    expect(lab.getSnapshot().running).toEqual({ id: 'stdout-log', who: 'reference' });
    // One scenario at a time: a second run is refused while the first goes.
    expect(await lab.run('id-pairing', 'reference')).toBeNull();
    const result = await running;
    expect(result).toMatchObject({ who: 'reference', variantId: 'ndjson', verdict: { outcome: 'copes', symptom: 'junk-skipped' } });
    expect(lab.getSnapshot()).toMatchObject({ running: null, results: { 'stdout-log': result } });
    expect(stepper.getSnapshot().config.scenario).toBe('stdout-log/ndjson');
  });

  it("judges a reader card by replaying the server's chunks through the learner's reader", async () => {
    const { lab } = await makeLab(readFileSync(join(PROJECT_ROOT, 'exercises/02-frames/starter.ts'), 'utf8'));
    const result = await lab.run('frame-boundaries', 'learner');
    expect(result?.verdict).toMatchObject({ outcome: 'breaks', symptom: 'reader-threw', values: { push: 1, error: 'push() threw: TODO: FrameReader.push' } });
  });
});
