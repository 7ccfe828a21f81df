import { afterEach, describe, expect, it } from 'vitest';
import type { ByteTransport } from '../../protocol/transport.ts';
import { createTestI18n } from '../i18n/testing.ts';
import type { ClientDriver, DriverKind } from '../../sandbox/client-driver.ts';
import { ReferenceDriver, referenceRegisterRunner } from './reference-driver.ts';
import type { PlanStep } from './step-plan.ts';
import { HANDSHAKE_CONFIG, StepperStore, type RunConfig, type StepperOptions } from './stepper-store.ts';
import type { StepRecord } from './stepper-records.ts';
import { inProcessServerPort } from '../../../tools/testing/in-process-server.ts';

// The page's i18next instance (react-i18next's), so the notes made outside React are in English.
createTestI18n('en');

const stores: StepperStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose();
});

function makeStepper(overrides: Partial<StepperOptions> = {}, port = inProcessServerPort()) {
  const stepper = new StepperStore({
    server: port,
    createDriver: () => new ReferenceDriver(),
    createRegisterRunner: () => referenceRegisterRunner,
    autoDelayMs: 0,
    ...overrides,
  });
  stores.push(stepper);
  return { stepper, port };
}

const arrowsOf = (record: StepRecord | undefined) => (record?.arrows ?? []).map((arrow) => `${arrow.direction} ${arrow.kind} ${arrow.method ?? ''}${arrow.id === null ? '' : ` #${String(arrow.id)}`}`.trim());
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('StepperStore: the handshake, one step at a time', () => {
  it('draws each arrow in its own step, the response only when the client reads it', async () => {
    const { stepper } = makeStepper();
    await stepper.step();
    let state = stepper.getSnapshot();
    expect(arrowsOf(state.records[0])).toEqual(['c2s request initialize #0']);
    expect(state.records[0]!.pending).toMatchObject([{ method: 'initialize', status: 'waiting' }]);
    // The server answers at once, but the answer waits in the pipe until the next step (the held
    // count is published at most every 50 ms).
    await settle(120);
    state = stepper.getSnapshot();
    expect(state.heldBytes).toBeGreaterThan(0);
    expect(state.records[0]!.clientState).toBe('new');

    await stepper.step();
    state = stepper.getSnapshot();
    expect(arrowsOf(state.records[1])).toEqual(['s2c response initialize #0']);
    expect(state.records[1]).toMatchObject({ clientState: 'initialized', transition: { from: 'new', to: 'initialized' }, outcome: 'ok' });
    expect(state.records[1]!.pending).toMatchObject([{ status: 'answered', answerOrder: 1 }]);
    expect(state.records[1]!.notes.map((note) => note.detail)).toEqual([expect.stringMatching(/^initialize\(\) → mcp-echo-server 1\.0\.0, protocol /)]);

    for (let i = 2; i < 9; i++) await stepper.step();
    state = stepper.getSnapshot();
    expect(state.records.map((record) => arrowsOf(record))).toEqual([
      ['c2s request initialize #0'],
      ['s2c response initialize #0'],
      ['c2s notification notifications/initialized'],
      ['c2s request tools/list #1'],
      ['s2c response tools/list #1'],
      ['c2s request tools/call #2'],
      ['s2c response tools/call #2'],
      ['c2s eof'],
      ['s2c exit'],
    ]);
    expect(state.records.map((record) => record.clientState)).toEqual(['new', 'initialized', 'ready', 'ready', 'ready', 'ready', 'ready', 'closed', 'closed']);
    expect(state.records.every((record) => record.outcome === 'ok')).toBe(true);
    expect(state.status).toEqual({ status: 'done' });
    expect(state.records[8]!.arrows[0]!.exit).toEqual({ code: 0, signal: null });
    expect(state.records[6]!.notes.at(-1)!.detail).toBe('callTool() → 你好, MCP 👋');
    // No arrow is drawn before its bytes reached the page.
    for (const arrow of state.records.flatMap((record) => record.arrows)) expect(arrow.drawnAt).toBeGreaterThanOrEqual(arrow.arrivedAt!);
  });

  it('steps back and forward over the log without sending anything', async () => {
    const { stepper, port } = makeStepper();
    await stepper.goTo(4);
    const wire = port.wires[0]!;
    const written: number[] = [];
    wire.onTapEvent((event) => {
      if (event.ev === 'c2s') written.push(event.t);
    });
    expect(stepper.getSnapshot()).toMatchObject({ cursor: 4, status: { status: 'ready' } });
    stepper.back();
    stepper.back();
    expect(stepper.getSnapshot().cursor).toBe(2);
    await stepper.step();
    await stepper.step();
    await settle(30);
    expect(stepper.getSnapshot().cursor).toBe(4);
    expect(stepper.getSnapshot().records).toHaveLength(4);
    expect(written).toEqual([]);
    // The next step is live again.
    await stepper.step();
    expect(arrowsOf(stepper.getSnapshot().records[4])).toEqual(['s2c response tools/list #1']);
  });

  it('runs to the end, and restart throws the run away and stops its server', async () => {
    const { stepper, port } = makeStepper();
    await stepper.runToEnd();
    expect(stepper.getSnapshot().records).toHaveLength(9);
    stepper.restart();
    expect(stepper.getSnapshot()).toMatchObject({ records: [], cursor: 0, status: { status: 'idle' }, runId: 1 });
    await stepper.step();
    expect(port.started).toHaveLength(2);
  });

  it('pairs answers by id when they come back out of order', async () => {
    const plan: PlanStep[] = [
      { kind: 'initialize' },
      { kind: 'receive' },
      { kind: 'notify-initialized' },
      { kind: 'call-tool', name: 'delay_echo', args: { text: 'slow', ms: 300 } },
      { kind: 'call-tool', name: 'delay_echo', args: { text: 'fast', ms: 10 } },
      { kind: 'receive' },
      { kind: 'receive' },
    ];
    const { stepper } = makeStepper();
    stepper.load({ ...HANDSHAKE_CONFIG, plan, scenario: 'id-pairing' });
    await stepper.runToEnd();
    const last = stepper.getSnapshot().records.at(-1)!;
    expect(last.pending.map((row) => [row.id, row.answerOrder, row.outcome])).toEqual([
      [0, 1, { ok: true, summary: expect.stringContaining('mcp-echo-server') }],
      [1, 3, { ok: true, summary: 'slow' }],
      [2, 2, { ok: true, summary: 'fast' }],
    ]);
    expect(arrowsOf(stepper.getSnapshot().records[5])).toEqual(['s2c response tools/call #2']);
  });
});

describe('StepperStore: where things go wrong', () => {
  it('shows a client that throws as a note on the client lane, at the step where it threw', async () => {
    const broken: ClientDriver = Object.assign(new ReferenceDriver(), {
      kind: 'learner' as DriverKind,
      perform: async () => ({ ok: false as const, error: { name: 'Error', message: 'TODO: initialize()', line: 97, code: null } }),
    });
    const { stepper } = makeStepper({ createDriver: () => broken });
    stepper.load({ ...HANDSHAKE_CONFIG, client: 'learner' });
    await stepper.step();
    const [record] = stepper.getSnapshot().records;
    expect(record).toMatchObject({ outcome: 'error', arrows: [] });
    expect(record!.notes).toMatchObject([{ lane: 'client', severity: 'error', kind: 'threw', who: 'learner', error: { line: 97 } }]);
  });

  it('reports a client that could not even be created at the first step', async () => {
    const unloadable: ClientDriver = Object.assign(new ReferenceDriver(), {
      start: async (_transport: ByteTransport) => ({ ok: false as const, error: { name: 'SyntaxError', message: 'Unexpected token', line: 3, code: null } }),
    });
    const { stepper } = makeStepper({ createDriver: () => unloadable });
    await stepper.step();
    expect(stepper.getSnapshot().records[0]!.notes[0]).toMatchObject({ kind: 'threw', detail: 'initialize(): SyntaxError: Unexpected token' });
  });

  it('shows a log line on stdout as an unreadable frame, and the reference client carries on', async () => {
    const { stepper } = makeStepper();
    const config: RunConfig = { ...HANDSHAKE_CONFIG, settings: { framing: 'ndjson', faults: ['stdout-log'] } };
    stepper.load(config);
    await stepper.runToEnd();
    const records = stepper.getSnapshot().records;
    expect(arrowsOf(records[1])).toEqual(['s2c unreadable', 's2c response initialize #0']);
    expect(records[1]!.notes.map((note) => note.kind)).toEqual(['protocol-error', 'result']);
    expect(records.at(-1)!.clientState).toBe('closed');
    expect(stepper.getSnapshot().status).toEqual({ status: 'done' });
  });

  it('gives up on a response the reader can no longer find (char-length), with a note on the pipe', async () => {
    const { stepper } = makeStepper();
    stepper.load({ ...HANDSHAKE_CONFIG, settings: { framing: 'content-length', faults: ['char-length'] }, timeouts: { receiveMs: 300 } });
    await stepper.runToEnd();
    const callAnswer = stepper.getSnapshot().records[6]!;
    expect(callAnswer.outcome).toBe('timeout');
    expect(arrowsOf(callAnswer)).toEqual(['s2c unreadable']);
    expect(callAnswer.notes.map((note) => [note.lane, note.kind])).toEqual([
      ['client', 'protocol-error'],
      ['pipe', 'no-response'],
    ]);
  });

  it('refuses a remote tool whose name clashes with a local one, and registers it under a prefix', async () => {
    const { stepper } = makeStepper();
    const plan: PlanStep[] = [{ kind: 'initialize' }, { kind: 'receive' }, { kind: 'notify-initialized' }, { kind: 'list-tools' }, { kind: 'receive' }, { kind: 'register', prefix: '' }, { kind: 'register', prefix: 'mcp__echo__' }];
    stepper.load({ ...HANDSHAKE_CONFIG, plan, scenario: 'name-collision' });
    await stepper.runToEnd();
    const [refused, accepted] = stepper.getSnapshot().records.slice(5);
    expect(refused!.registry).toMatchObject({ ok: false, error: { name: 'DuplicateToolError' } });
    expect(refused!.registry!.registry.map((entry) => entry.name)).toEqual(['get_time', 'get_weather', 'add']);
    expect(accepted!.registry!.registry.map((entry) => entry.name)).toContain('mcp__echo__add');
  });

  it('fails clearly when the server cannot start', async () => {
    const { stepper } = makeStepper({ server: { settings: () => ({ framing: 'ndjson', faults: [] }), start: async () => ({ ok: false, reason: 'no host' }) } });
    await stepper.step();
    expect(stepper.getSnapshot()).toMatchObject({ status: { status: 'failed', reason: 'no host' }, records: [] });
  });
});
