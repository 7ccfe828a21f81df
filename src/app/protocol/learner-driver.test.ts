import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../tools/catalogue-node.ts';
import type { ProtocolModules } from '../../sandbox/protocol-modules.ts';
import { encodeFrame, encodeLine } from '../../protocol/framing/index.ts';
import { emittedMessages } from '../../protocol/inspect/chunk-replay.ts';
import { LearnerDriver, learnerRegisterRunner, runLearnerReader } from './learner-driver.ts';
import { LearnerWorkerHandle } from '../../sandbox/learner-worker-client.ts';
import type { LearnerSource } from '../../sandbox/learner-worker-messages.ts';
import { referenceRegisterRunner } from './reference-driver.ts';
import { HANDSHAKE_CONFIG, StepperStore } from './stepper-store.ts';
import { inProcessServerPort } from '../../../tools/testing/in-process-server.ts';
import { closeLearnerChannels, learnerWorkerFactory, protocolModules } from '../../../tools/testing/learner-worker-channel.ts';

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');
const clientSource = (code: string): LearnerSource => ({ code, file: 'client.ts', moduleId: '@protocol/client' });

let modules: ProtocolModules;
beforeAll(async () => {
  modules = await protocolModules();
});
const stores: StepperStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose();
  closeLearnerChannels();
});

function stepperWith(source: LearnerSource) {
  const stepper = new StepperStore({
    server: inProcessServerPort(),
    createDriver: () => new LearnerDriver(source, learnerWorkerFactory(modules)),
    createRegisterRunner: () => referenceRegisterRunner,
    autoDelayMs: 0,
  });
  stepper.load({ ...HANDSHAKE_CONFIG, client: 'learner' });
  stores.push(stepper);
  return stepper;
}

describe("the learner's client drives the stepper from a worker", () => {
  it('runs the whole handshake with a correct client (the reference pasted in, relative imports and all)', async () => {
    const stepper = stepperWith(clientSource(read('src/protocol/client.ts')));
    await stepper.runToEnd();
    const { records, status } = stepper.getSnapshot();
    expect(status).toEqual({ status: 'done' });
    expect(records.map((record) => record.arrows.map((arrow) => `${arrow.kind} ${arrow.method ?? ''}`.trim()))).toEqual([
      ['request initialize'],
      ['response initialize'],
      ['notification notifications/initialized'],
      ['request tools/list'],
      ['response tools/list'],
      ['request tools/call'],
      ['response tools/call'],
      ['eof'],
      ['exit'],
    ]);
    expect(records.map((record) => record.clientState)).toEqual(['new', 'initialized', 'ready', 'ready', 'ready', 'ready', 'ready', 'closed', 'closed']);
    expect(records[6]!.pending.at(-1)!.outcome).toEqual({ ok: true, summary: '你好, MCP 👋' });
  });

  it("shows the starter's TODO where it is thrown, with its line in the learner's file", async () => {
    const starter = read('exercises/03-client/starter.ts');
    const stepper = stepperWith(clientSource(starter));
    await stepper.step();
    const [record] = stepper.getSnapshot().records;
    expect(record!.outcome).toBe('error');
    const note = record!.notes[0]!;
    expect(note).toMatchObject({ lane: 'client', kind: 'threw', who: 'learner' });
    expect(note.error!.message).toBe('TODO: initialize()');
    const line = starter.split('\n').findIndex((text) => text.includes("throw new Error('TODO: initialize()')")) + 1;
    expect(note.error!.line).toBe(line);
  });

  it('reports a syntax error at the first step', async () => {
    const stepper = stepperWith(clientSource('export class McpClient {\n  constructor( {\n}'));
    await stepper.step();
    expect(stepper.getSnapshot().records[0]!.notes[0]!.error).toMatchObject({ name: 'SyntaxError', line: expect.any(Number) });
  });

  it('stops a worker that goes silent and says why', async () => {
    const handle = new LearnerWorkerHandle(learnerWorkerFactory(modules, { silent: true }), { startTimeoutMs: 300 });
    const reason = await new Promise<string>((resolve) => handle.onCrash(resolve));
    expect(reason).toMatch(/did not start within/);
    expect(handle.alive).toBe(false);
  });
});

describe("the learner's reader replays recorded chunks", () => {
  const message = { jsonrpc: '2.0', id: 0, result: { text: '你好' } };
  const frame = encodeFrame(message);
  const chunks = [frame.subarray(0, 3), frame.subarray(3, 30), frame.subarray(30)];

  it('gives the same messages as the reference for a correct reader', async () => {
    const result = await runLearnerReader({ code: read('src/protocol/framing/index.ts'), file: 'frames.ts', moduleId: '@protocol/framing/index' }, 'content-length', chunks, learnerWorkerFactory(modules));
    expect(result.ok && emittedMessages(result.steps)).toEqual([message]);
    expect(result.ok && result.steps.map((step) => step.bufferedBytes)).toEqual([3, 30, 0]);
  });

  it("records the starter's TODO at every push instead of failing the replay", async () => {
    const result = await runLearnerReader({ code: read('exercises/02-frames/starter.ts'), file: 'frames.ts', moduleId: '@protocol/framing/index' }, 'ndjson', [encodeLine(message)], learnerWorkerFactory(modules));
    expect(result).toMatchObject({ ok: true, steps: [{ error: 'push() threw: TODO: LineReader.push' }] });
  });
});

describe("the learner's registerMcpTools", () => {
  it('runs over the listed tools in a worker: refused without a prefix, accepted with one', async () => {
    const runner = learnerRegisterRunner(() => ({ code: read('src/protocol/bridge.ts'), file: 'register-mcp-tools.ts', moduleId: '@protocol/bridge' }), learnerWorkerFactory(modules));
    const tools = [{ name: 'add', inputSchema: { type: 'object' as const } }, { name: 'echo', inputSchema: { type: 'object' as const } }];
    const refused = await runner.run('', tools);
    expect(refused).toMatchObject({ ok: false, error: { name: 'DuplicateToolError' } });
    expect(refused.registry.map((entry) => entry.name)).toEqual(['get_time', 'get_weather', 'add']);
    const accepted = await runner.run('mcp__echo__', tools);
    expect(accepted).toMatchObject({ ok: true, count: 2 });
    expect(accepted.registry.filter((entry) => entry.source === 'mcp').map((entry) => entry.name)).toEqual(['mcp__echo__add', 'mcp__echo__echo']);
  });
});
