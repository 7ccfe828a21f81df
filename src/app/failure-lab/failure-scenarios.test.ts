import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../tools/catalogue-node.ts';
import type { ProtocolModules } from '../../sandbox/protocol-modules.ts';
import { getFraming } from '../../protocol/framing/index.ts';
import { replayChunks } from '../../protocol/inspect/chunk-replay.ts';
import type { DriverKind } from '../../sandbox/client-driver.ts';
import { FAILURE_SCENARIOS, findScenario, judge, readerVerdictInput, scenarioConfig, type ScenarioId, type Verdict } from './failure-scenarios.ts';
import { LearnerDriver, learnerRegisterRunner, runLearnerReader } from '../protocol/learner-driver.ts';
import type { LearnerSource } from '../../sandbox/learner-worker-messages.ts';
import { ReferenceDriver, referenceRegisterRunner } from '../protocol/reference-driver.ts';
import { StepperStore } from '../protocol/stepper-store.ts';
import { inProcessServerPort } from '../../../tools/testing/in-process-server.ts';
import { closeLearnerChannels, learnerWorkerFactory, protocolModules } from '../../../tools/testing/learner-worker-channel.ts';

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');

/** A reference file with one of tests/mutants' patches applied: a learner who made that mistake. */
const mutants = import.meta.glob<{ file: string; edits: Array<{ find: string; replace: string }> }>('../../../tests/mutants/*/*.ts', { import: 'default' });

async function mutant(path: string): Promise<{ file: string; code: string }> {
  const descriptor = await mutants[`../../../tests/mutants/${path}.ts`]!();
  let code = read(descriptor.file);
  for (const edit of descriptor.edits) {
    expect(code).toContain(edit.find);
    code = code.replace(edit.find, edit.replace);
  }
  return { file: descriptor.file, code };
}

let modules: ProtocolModules;
beforeAll(async () => {
  modules = await protocolModules();
});
const stores: StepperStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose();
  closeLearnerChannels();
});

async function runCard(id: ScenarioId, variantId: string, who: DriverKind = 'reference', learner?: LearnerSource): Promise<{ verdict: Verdict; stepper: StepperStore }> {
  const scenario = findScenario(id);
  const variant = scenario.variants.find((candidate) => candidate.id === variantId)!;
  const stepper = new StepperStore({
    server: inProcessServerPort(),
    createDriver: (kind) => (kind === 'learner' ? new LearnerDriver(learner!, learnerWorkerFactory(modules)) : new ReferenceDriver()),
    createRegisterRunner: (kind) => (kind === 'learner' ? learnerRegisterRunner(() => learner!, learnerWorkerFactory(modules)) : referenceRegisterRunner),
    autoDelayMs: 0,
  });
  stores.push(stepper);
  const config = scenarioConfig(scenario, variant, who);
  // Only a response that never comes waits out the timeout: keep that wait short here.
  const receiveMs = variant.id === 'char-length' ? 400 : 2500;
  stepper.load({ ...config, timeouts: { ...config.timeouts, receiveMs } });
  await stepper.runToEnd();
  return { verdict: judge(scenario, variant, stepper.getSnapshot().records, who), stepper };
}

describe('every failure card, with the reference code', () => {
  const expected: Record<string, [Verdict['outcome'], Verdict['symptom']]> = {
    'frame-boundaries/split-writes': ['copes', 'split-joined'],
    'frame-boundaries/char-length': ['fails-loudly', 'length-short'],
    'id-pairing/out-of-order': ['copes', 'out-of-order'],
    'id-pairing/orphan-response': ['copes', 'orphan'],
    'init-order/client-call': ['fails-loudly', 'refused-locally'],
    'init-order/raw-request': ['fails-loudly', 'server-refused'],
    'error-layering/error-as-rpc-error': ['fails-loudly', 'rpc-error'],
    'error-layering/is-error-result': ['copes', 'is-error-result'],
    'stdout-log/content-length': ['copes', 'junk-skipped'],
    'stdout-log/ndjson': ['copes', 'junk-skipped'],
    'name-collision/prefix': ['fails-loudly', 'clash-refused'],
  };

  it('covers each variant of each of the six cards', () => {
    expect(FAILURE_SCENARIOS.map((scenario) => scenario.id)).toHaveLength(6);
    expect(Object.keys(expected).sort()).toEqual(FAILURE_SCENARIOS.flatMap((scenario) => scenario.variants.map((variant) => `${scenario.id}/${variant.id}`)).sort());
  });

  // The numbers a learner should see, where a card names them.
  const values: Record<string, Record<string, string | number>> = {
    'id-pairing/out-of-order': { first: '2', second: '1' },
    'init-order/raw-request': { code: '-32600' },
    'error-layering/error-as-rpc-error': { code: '-32603' },
  };

  for (const [key, [outcome, symptom]] of Object.entries(expected)) {
    it(`${key}: ${outcome}, ${symptom}`, async () => {
      const [id, variant] = key.split('/') as [ScenarioId, string];
      const { verdict } = await runCard(id, variant);
      expect(verdict, JSON.stringify(verdict)).toMatchObject({ outcome, symptom, values: values[key] ?? {} });
      expect(verdict.focus).not.toBeNull();
    });
  }
});

describe("the cards with the learner's code", () => {
  it('catches a client that pairs answers by arrival order', async () => {
    const { code } = await mutant('03-client/pair-by-arrival-order');
    const { verdict } = await runCard('id-pairing', 'out-of-order', 'learner', { code, file: 'client.ts', moduleId: '@protocol/client' });
    expect(verdict).toMatchObject({ outcome: 'breaks', symptom: 'mispaired', values: { got: 'fast', expected: 'slow' } });
  });

  it('catches a client that lets tools/list out before the handshake, and shows the server refusing it', async () => {
    const { code } = await mutant('03-client/tools-before-handshake');
    const { verdict } = await runCard('init-order', 'client-call', 'learner', { code, file: 'client.ts', moduleId: '@protocol/client' });
    expect(verdict).toMatchObject({ outcome: 'breaks', symptom: 'let-through', values: { code: '-32600' } });
  });

  it("reports the starter's TODO as the client throwing", async () => {
    const { verdict } = await runCard('error-layering', 'is-error-result', 'learner', { code: read('exercises/03-client/starter.ts'), file: 'client.ts', moduleId: '@protocol/client' });
    expect(verdict).toMatchObject({ outcome: 'breaks', symptom: 'client-threw', values: { step: 1 } });
  });

  it('catches a registerMcpTools that registers half the tools before finding the clash', async () => {
    const { code } = await mutant('05-register-mcp-tools/half-bridged-on-clash');
    const { verdict } = await runCard('name-collision', 'prefix', 'learner', { code, file: 'register-mcp-tools.ts', moduleId: '@protocol/register-mcp-tools' });
    expect(verdict).toMatchObject({ outcome: 'breaks', symptom: 'clash-not-refused' });
  });

  it("does not mistake the exercise 5 starter's TODO for a refused clash", async () => {
    const { verdict } = await runCard('name-collision', 'prefix', 'learner', { code: read('exercises/05-register-mcp-tools/starter.ts'), file: 'register-mcp-tools.ts', moduleId: '@protocol/bridge' });
    expect(verdict).toMatchObject({ outcome: 'breaks', symptom: 'register-threw' });
    expect(String(verdict.values.error)).toContain('TODO');
  });

  it("replays the split-writes stream through a reader that decodes each chunk as text, and finds where it goes wrong", async () => {
    const { stepper } = await runCard('frame-boundaries', 'split-writes');
    const chunks = stepper.getSnapshot().records.length > 0 ? stepper.streamChunks('s2c') : [];
    expect(chunks.length).toBeGreaterThan(10);
    const reference = replayChunks(() => getFraming('content-length').createReader(), chunks);
    const scenario = findScenario('frame-boundaries');
    const variant = scenario.variants[0]!;

    const correct = await runLearnerReader({ code: read('src/protocol/framing/index.ts'), file: 'frames.ts', moduleId: '@protocol/framing/index' }, 'content-length', chunks, learnerWorkerFactory(modules));
    expect(judge(scenario, variant, [], 'learner', readerVerdictInput(reference, correct))).toMatchObject({ outcome: 'copes', symptom: 'reader-same', values: { count: 3 } });

    const { code } = await mutant('02-frames/decodes-each-chunk');
    const broken = await runLearnerReader({ code, file: 'frames.ts', moduleId: '@protocol/framing/index' }, 'content-length', chunks, learnerWorkerFactory(modules));
    expect(judge(scenario, variant, [], 'learner', readerVerdictInput(reference, broken))).toMatchObject({ outcome: 'breaks' });
  });
});
