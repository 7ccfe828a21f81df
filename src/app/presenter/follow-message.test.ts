import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReferenceDriver, referenceRegisterRunner } from '../protocol/reference-driver.ts';
import { StepperStore } from '../protocol/stepper-store.ts';
import { inProcessServerPort } from '../../../tools/testing/in-process-server.ts';
import { decodeFollowMessage, FOLLOW_PROTOCOL, followStateOf, type FollowState } from './follow-message.ts';

// A real handshake against the echo server session, so the state checked is what the presenter
// really sends, not a hand-made sample that could drift from the stepper's records.
let stepper: StepperStore;
let state: FollowState;

beforeAll(async () => {
  stepper = new StepperStore({ server: inProcessServerPort(), createDriver: () => new ReferenceDriver(), createRegisterRunner: () => referenceRegisterRunner, autoDelayMs: 0 });
  await stepper.runToEnd();
  const callArrow = stepper.getSnapshot().records.flatMap((record) => record.arrows).find((arrow) => arrow.method === 'tools/call' && arrow.kind === 'request')!;
  state = followStateOf(stepper.getSnapshot(), stepper.inspect(callArrow.seq), 'zh-CN');
}, 20_000);

afterAll(() => stepper.dispose());

const message = (patch: Partial<FollowState> = {}) => ({ type: 'state', protocol: FOLLOW_PROTOCOL, presenter: 'p1', state: { ...structuredClone(state), ...patch } });

/** A copy of the state message with one value replaced at a path such as `records.0.arrows.0.kind`. */
function mutated(path: string, value: unknown) {
  const copy = message();
  const keys = path.split('.');
  let node = copy.state as unknown as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  if (value === undefined) delete node[keys.at(-1)!];
  else node[keys.at(-1)!] = value;
  return copy;
}

describe('follow messages', () => {
  it('builds the state from a real run: every shown step, the open frame’s bytes, the language', () => {
    expect(state.records).toHaveLength(9);
    expect(state.total).toBe(9);
    expect(state.status).toEqual({ status: 'done' });
    expect(state.records.flatMap((record) => record.arrows)).toHaveLength(9);
    expect(state.inspect?.bytes).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(state.inspect!.bytes)).toContain('你好, MCP 👋');
    expect(state.language).toBe('zh-CN');
    expect(state.next).toBeNull();
  });

  it('sends only the shown steps when the presenter stepped back, and says what comes next', () => {
    const back = followStateOf({ ...stepper.getSnapshot(), cursor: 3 }, null, 'fr');
    expect(back.records.map((record) => record.step.kind)).toEqual(['initialize', 'receive', 'notify-initialized']);
    expect(back.next).toEqual({ kind: 'list-tools' });
    expect(back.language).toBe('en');
  });

  it('accepts the real state after a structured clone (what BroadcastChannel delivers)', () => {
    const decoded = decodeFollowMessage(structuredClone(message()));
    expect(decoded?.type).toBe('state');
    if (decoded?.type !== 'state') return;
    expect(decoded.state.records).toHaveLength(9);
    expect(Array.from(decoded.state.inspect!.bytes)).toEqual(Array.from(state.inspect!.bytes));
  });

  it('accepts hello and bye', () => {
    expect(decodeFollowMessage({ type: 'hello', protocol: FOLLOW_PROTOCOL })).toEqual({ type: 'hello', protocol: FOLLOW_PROTOCOL });
    expect(decodeFollowMessage({ type: 'bye', protocol: FOLLOW_PROTOCOL, presenter: 'p1' })).toEqual({ type: 'bye', protocol: FOLLOW_PROTOCOL, presenter: 'p1' });
  });

  it('ignores junk that is not a message at all', () => {
    for (const junk of [null, undefined, 42, 'state', [], [message()], new Map(), { type: 'state' }, { type: 'hello' }, { type: 'hello', protocol: 2 }, { type: 'bye', protocol: FOLLOW_PROTOCOL }, { type: 'dance', protocol: FOLLOW_PROTOCOL }]) {
      expect(decodeFollowMessage(junk), String(JSON.stringify(junk))).toBeNull();
    }
  });

  it.each([
    ['records', 'not a list'],
    ['records.0.step.kind', 'launch'],
    ['records.0.arrows.0.kind', 'telegram'],
    ['records.0.arrows.0.direction', 'sideways'],
    ['records.0.arrows.0.seq', -1],
    ['records.0.arrows.0.id', 1.5],
    ['records.0.arrows.0.frame', { offset: 0 }],
    ['records.0.arrows.0.value', { nested: () => 1 }],
    ['records.1.clientState', 'confused'],
    ['records.1.pending.0.status', 'lost'],
    ['records.1.pending.0.outcome', { ok: true }],
    ['records.1.notes', [{ seq: 1 }]],
    ['records.2.index', 7],
    ['records.0.heldBytes', undefined],
    ['status', { status: 'stepping', index: 1 }],
    ['status', { status: 'failed' }],
    ['waiting', { step: 1, waitingFor: 'godot' }],
    ['inspect.bytes', [1, 2, 3]],
    ['inspect.framing', 'xml'],
    ['inspect.chunks', [{ index: 0, start: 0 }]],
    ['server', { framing: 'ndjson', faults: [], host: 'mainframe' }],
    ['total', 3],
    ['language', 'fr'],
    ['next', { kind: 'call-tool', name: 'echo' }],
  ])('ignores a state whose %s is wrong', (path, value) => {
    expect(decodeFollowMessage(mutated(path, value))).toBeNull();
  });

  it('refuses a state posted by an older or newer build', () => {
    expect(decodeFollowMessage({ ...message(), protocol: FOLLOW_PROTOCOL + 1 })).toBeNull();
  });
});
