// The chapter's six failure modes as runnable scenarios: which fault or misbehaviour each one
// switches on, the plan the stepper runs, whose code faces it, and how to read the outcome from
// the recorded steps. Judging is pure: records in, verdict out.

import type { DriverKind } from '../../sandbox/client-driver.ts';
import { HANDSHAKE_PLAN, type PlanStep } from '../protocol/step-plan.ts';
import type { RunConfig, ServerSettings } from '../protocol/stepper-types.ts';
import { compareReplays, type ReplayComparison, type ReplayStep } from '../../protocol/inspect/chunk-replay.ts';
import type { Arrow, Note, StepRecord } from '../protocol/stepper-records.ts';

export const SCENARIO_IDS = ['frame-boundaries', 'id-pairing', 'init-order', 'error-layering', 'stdout-log', 'name-collision'] as const;
export type ScenarioId = (typeof SCENARIO_IDS)[number];

/** The part of the learner's code that meets the failure: exercise 2, 3 or 5. */
export type LearnerPart = 'reader' | 'client' | 'register';
export type SymptomPlace = 'diagram' | 'bytes' | 'state' | 'registry';

export interface ScenarioVariant {
  id: string;
  settings: ServerSettings;
  plan: readonly PlanStep[];
}

export interface FailureScenario {
  id: ScenarioId;
  learnerPart: LearnerPart;
  /** Where the symptom shows. */
  place: SymptomPlace;
  variants: readonly ScenarioVariant[];
}

const HANDSHAKE_HEAD: readonly PlanStep[] = [{ kind: 'initialize' }, { kind: 'receive' }, { kind: 'notify-initialized' }];
const GOODBYE: readonly PlanStep[] = [{ kind: 'close' }, { kind: 'exit' }];
const callAndRead = (name: string, args: Record<string, unknown>): PlanStep[] => [{ kind: 'call-tool', name, args }, { kind: 'receive' }];

export const FAILURE_SCENARIOS: readonly FailureScenario[] = [
  {
    id: 'frame-boundaries',
    learnerPart: 'reader',
    place: 'bytes',
    variants: [
      { id: 'split-writes', settings: { framing: 'content-length', faults: ['split-writes'] }, plan: HANDSHAKE_PLAN },
      { id: 'char-length', settings: { framing: 'content-length', faults: ['char-length'] }, plan: HANDSHAKE_PLAN },
    ],
  },
  {
    id: 'id-pairing',
    learnerPart: 'client',
    place: 'state',
    variants: [
      {
        id: 'out-of-order',
        settings: { framing: 'ndjson', faults: [] },
        plan: [
          ...HANDSHAKE_HEAD,
          { kind: 'call-tool', name: 'delay_echo', args: { text: 'slow', ms: 700 } },
          { kind: 'call-tool', name: 'delay_echo', args: { text: 'fast', ms: 50 } },
          { kind: 'receive' },
          { kind: 'receive' },
          ...GOODBYE,
        ],
      },
      {
        id: 'orphan-response',
        settings: { framing: 'ndjson', faults: ['reply-to-notification'] },
        plan: [...HANDSHAKE_HEAD, ...callAndRead('echo', { text: 'hello' }), ...GOODBYE],
      },
    ],
  },
  {
    id: 'init-order',
    learnerPart: 'client',
    place: 'state',
    variants: [
      // The client's own call: a correct client refuses before sending anything.
      { id: 'client-call', settings: { framing: 'ndjson', faults: [] }, plan: [{ kind: 'initialize' }, { kind: 'receive' }, { kind: 'list-tools' }, { kind: 'receive' }, ...GOODBYE] },
      // The same request written straight onto stdin: what the chapter's server does about it.
      {
        id: 'raw-request',
        settings: { framing: 'ndjson', faults: [] },
        plan: [{ kind: 'initialize' }, { kind: 'receive' }, { kind: 'raw', message: { jsonrpc: '2.0', id: 99, method: 'tools/list' } }, { kind: 'receive' }, ...GOODBYE],
      },
    ],
  },
  {
    id: 'error-layering',
    learnerPart: 'client',
    place: 'diagram',
    variants: [
      { id: 'error-as-rpc-error', settings: { framing: 'ndjson', faults: ['error-as-rpc-error'] }, plan: [...HANDSHAKE_HEAD, ...callAndRead('fail', {}), ...GOODBYE] },
      { id: 'is-error-result', settings: { framing: 'ndjson', faults: [] }, plan: [...HANDSHAKE_HEAD, ...callAndRead('fail', {}), ...GOODBYE] },
    ],
  },
  {
    id: 'stdout-log',
    learnerPart: 'reader',
    place: 'bytes',
    variants: [
      { id: 'content-length', settings: { framing: 'content-length', faults: ['stdout-log'] }, plan: HANDSHAKE_PLAN },
      { id: 'ndjson', settings: { framing: 'ndjson', faults: ['stdout-log'] }, plan: HANDSHAKE_PLAN },
    ],
  },
  {
    id: 'name-collision',
    learnerPart: 'register',
    place: 'registry',
    variants: [
      {
        id: 'prefix',
        settings: { framing: 'ndjson', faults: [] },
        plan: [...HANDSHAKE_HEAD, { kind: 'list-tools' }, { kind: 'receive' }, { kind: 'register', prefix: '' }, { kind: 'register', prefix: 'mcp__echo__' }, ...GOODBYE],
      },
    ],
  },
];

export function findScenario(id: ScenarioId): FailureScenario {
  return FAILURE_SCENARIOS.find((scenario) => scenario.id === id)!;
}

/** Short waits: a lab run should show its symptom in seconds, not wait out the stepper's patience. */
const LAB_TIMEOUTS = { receiveMs: 2500, sendMs: 2500, exitMs: 3000 };

/** The stepper configuration for one run of a card. `who` says whose code faces the failure. */
export function scenarioConfig(scenario: FailureScenario, variant: ScenarioVariant, who: DriverKind): RunConfig {
  const learnerClient = who === 'learner' && scenario.learnerPart === 'client';
  const learnerRegister = who === 'learner' && scenario.learnerPart === 'register';
  return {
    plan: variant.plan,
    scenario: `${scenario.id}/${variant.id}`,
    client: learnerClient ? 'learner' : 'reference',
    register: learnerRegister ? 'learner' : 'reference',
    settings: variant.settings,
    timeouts: LAB_TIMEOUTS,
  };
}

// ---- verdicts ----

export type VerdictOutcome = 'copes' | 'fails-loudly' | 'breaks';

export type SymptomKey =
  | 'split-joined'
  | 'length-short'
  | 'out-of-order'
  | 'mispaired'
  | 'orphan'
  | 'refused-locally'
  | 'server-refused'
  | 'let-through'
  | 'rpc-error'
  | 'is-error-result'
  | 'junk-skipped'
  | 'clash-refused'
  | 'clash-not-refused'
  | 'register-threw'
  | 'reader-same'
  | 'reader-differs'
  | 'reader-threw'
  | 'client-threw'
  | 'incomplete';

export interface Verdict {
  outcome: VerdictOutcome;
  symptom: SymptomKey;
  values: Record<string, string | number>;
  /** The arrow or note that shows the symptom, to highlight (and, for bytes, to inspect). */
  focus: { seq: number; kind: 'arrow' | 'note' } | null;
}

const allArrows = (records: readonly StepRecord[]) => records.flatMap((record) => record.arrows);
const allNotes = (records: readonly StepRecord[]) => records.flatMap((record) => record.notes);
const arrowFocus = (arrow: Arrow | undefined) => (arrow ? { seq: arrow.seq, kind: 'arrow' as const } : null);
const noteFocus = (note: Note | undefined) => (note ? { seq: note.seq, kind: 'note' as const } : null);
const errorText = (note: Note | undefined) => (note?.error ? `${note.error.name}: ${note.error.message}` : (note?.detail ?? ''));

/** Read a finished (or failed) run of `scenario`. For reader cards, `replay` compares the learner's reader. */
export function judge(scenario: FailureScenario, variant: ScenarioVariant, records: readonly StepRecord[], who: DriverKind, replay?: ReplayComparison | { error: string; push: number }): Verdict {
  const arrows = allArrows(records);
  const notes = allNotes(records);
  const learnerThrew = notes.find((note) => note.who === 'learner' && (note.kind === 'threw' || note.kind === 'crashed' || note.kind === 'uncaught'));

  if (who === 'learner' && scenario.learnerPart === 'reader' && replay) {
    if ('error' in replay) return { outcome: 'breaks', symptom: 'reader-threw', values: { push: replay.push + 1, error: replay.error }, focus: null };
    return replay.same
      ? { outcome: 'copes', symptom: 'reader-same', values: { count: replay.expectedMessages }, focus: null }
      : { outcome: 'breaks', symptom: 'reader-differs', values: { push: (replay.firstDifference ?? 0) + 1, expected: replay.expectedMessages, actual: replay.actualMessages }, focus: null };
  }

  switch (`${scenario.id}/${variant.id}`) {
    case 'frame-boundaries/split-writes': {
      const mostSplit = [...arrows].filter((arrow) => arrow.direction === 's2c' && arrow.frame).sort((a, b) => b.chunks.length - a.chunks.length)[0];
      const lost = notes.some((note) => note.kind === 'no-response');
      if (!mostSplit || lost) return incomplete(notes);
      return { outcome: 'copes', symptom: 'split-joined', values: { chunks: mostSplit.chunks.length, method: mostSplit.method ?? '?' }, focus: arrowFocus(mostSplit) };
    }
    case 'frame-boundaries/char-length':
    case 'stdout-log/content-length':
    case 'stdout-log/ndjson': {
      const junk = arrows.filter((arrow) => arrow.kind === 'unreadable');
      const lost = notes.find((note) => note.kind === 'no-response');
      if (junk.length === 0) return incomplete(notes);
      if (scenario.id === 'frame-boundaries') return { outcome: 'fails-loudly', symptom: 'length-short', values: { detail: junk[0]!.detail ?? '', lost: lost?.detail ?? '' }, focus: arrowFocus(junk[0]) };
      return { outcome: lost ? 'fails-loudly' : 'copes', symptom: 'junk-skipped', values: { count: junk.length }, focus: arrowFocus(junk[0]) };
    }
    case 'id-pairing/out-of-order': {
      if (learnerThrew) return threw(learnerThrew, records);
      const last = records.at(-1)?.pending ?? [];
      const calls = last.filter((row) => row.method === 'tools/call');
      const [slow, fast] = calls;
      if (!slow || !fast || slow.answerOrder === null || fast.answerOrder === null) return incomplete(notes);
      const expected: Record<string, string> = { [slow.key]: 'slow', [fast.key]: 'fast' };
      const wrong = calls.find((row) => row.outcome?.ok && row.outcome.summary !== expected[row.key]);
      const firstAnswer = arrows.find((arrow) => arrow.kind === 'response' && arrow.method === 'tools/call');
      if (wrong && wrong.outcome?.ok) return { outcome: 'breaks', symptom: 'mispaired', values: { id: String(wrong.id), got: wrong.outcome.summary, expected: expected[wrong.key]! }, focus: arrowFocus(firstAnswer) };
      return { outcome: 'copes', symptom: 'out-of-order', values: { first: String(fast.id), second: String(slow.id) }, focus: arrowFocus(firstAnswer) };
    }
    case 'id-pairing/orphan-response': {
      if (learnerThrew) return threw(learnerThrew, records);
      const orphan = arrows.find((arrow) => arrow.kind === 'invalid' && arrow.direction === 's2c');
      if (!orphan) return incomplete(notes);
      const finished = records.at(-1)?.clientState === 'closed' && !notes.some((note) => note.kind === 'no-response');
      return { outcome: finished ? 'copes' : 'breaks', symptom: 'orphan', values: { detail: orphan.detail ?? '' }, focus: arrowFocus(orphan) };
    }
    case 'init-order/client-call': {
      const early = arrows.find((arrow) => arrow.kind === 'request' && arrow.method === 'tools/list');
      if (early) {
        const refusal = arrows.find((arrow) => arrow.kind === 'error-response' && arrow.method === 'tools/list');
        return { outcome: 'breaks', symptom: 'let-through', values: { code: errorCode(refusal) }, focus: arrowFocus(refusal ?? early) };
      }
      const refused = notes.find((note) => note.kind === 'threw' && note.detail.startsWith('listTools'));
      if (!refused) return incomplete(notes);
      return { outcome: 'fails-loudly', symptom: 'refused-locally', values: { error: errorText(refused) }, focus: noteFocus(refused) };
    }
    case 'init-order/raw-request': {
      const refusal = arrows.find((arrow) => arrow.kind === 'error-response' && arrow.id === 99);
      if (!refusal) return incomplete(notes);
      return { outcome: 'fails-loudly', symptom: 'server-refused', values: { code: errorCode(refusal), message: errorMessage(refusal) }, focus: arrowFocus(refusal) };
    }
    case 'error-layering/error-as-rpc-error':
    case 'error-layering/is-error-result': {
      const answer = arrows.find((arrow) => (arrow.kind === 'response' || arrow.kind === 'error-response') && arrow.method === 'tools/call');
      if (!answer) return learnerThrew ? threw(learnerThrew, records) : incomplete(notes);
      if (answer.kind === 'error-response') return { outcome: 'fails-loudly', symptom: 'rpc-error', values: { code: errorCode(answer), message: errorMessage(answer) }, focus: arrowFocus(answer) };
      const row = records.at(-1)?.pending.find((candidate) => candidate.method === 'tools/call');
      const text = row?.outcome?.ok ? row.outcome.summary : '';
      return { outcome: row?.outcome?.ok ? 'copes' : 'breaks', symptom: 'is-error-result', values: { text }, focus: arrowFocus(answer) };
    }
    case 'name-collision/prefix': {
      const [bare, prefixed] = records.filter((record) => record.step.kind === 'register');
      const first = bare?.registry;
      const second = prefixed?.registry;
      if (!first || !second) return learnerThrew ? threw(learnerThrew, records) : incomplete(notes);
      const refusalNote = bare.notes.find((note) => note.kind === 'register-refused');
      const untouched = first.registry.every((entry) => entry.source === 'local') && first.registry.length === 3;
      // A refusal must be about the clash; a "TODO" thrown by unfinished code refuses nothing.
      const aboutClash = first.error !== null && (first.error.name === 'DuplicateToolError' || /already|clash|duplicate|taken|exists/i.test(first.error.message));
      if (!first.ok && untouched && !aboutClash) return { outcome: 'breaks', symptom: 'register-threw', values: { error: errorText(refusalNote) }, focus: noteFocus(refusalNote) };
      if (!second.ok) return { outcome: 'breaks', symptom: 'register-threw', values: { error: second.error ? `${second.error.name}: ${second.error.message}` : '?' }, focus: noteFocus(prefixed.notes[0]) };
      if (first.ok || !untouched) return { outcome: 'breaks', symptom: 'clash-not-refused', values: { names: first.registry.map((entry) => entry.name).join(', ') }, focus: noteFocus(refusalNote ?? bare.notes[0]) };
      return { outcome: 'fails-loudly', symptom: 'clash-refused', values: { error: errorText(refusalNote), names: second.registry.filter((entry) => entry.source === 'mcp').map((entry) => entry.name).join(', ') }, focus: noteFocus(refusalNote) };
    }
    default:
      return incomplete(notes);
  }
}

function incomplete(notes: readonly Note[]): Verdict {
  const problem = notes.find((note) => note.severity === 'error');
  return { outcome: 'breaks', symptom: 'incomplete', values: { reason: problem?.detail ?? 'the expected messages did not appear' }, focus: noteFocus(problem) };
}

function threw(note: Note, records: readonly StepRecord[]): Verdict {
  const step = records.findIndex((record) => record.notes.includes(note)) + 1;
  return { outcome: 'breaks', symptom: 'client-threw', values: { step, error: errorText(note) }, focus: noteFocus(note) };
}

function errorCode(arrow: Arrow | undefined): string {
  const code = (arrow?.value as { error?: { code?: unknown } } | null)?.error?.code;
  return typeof code === 'number' ? String(code) : '?';
}

function errorMessage(arrow: Arrow): string {
  const message = (arrow.value as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === 'string' ? message : '';
}

/** What the learner's reader did with the same chunks as the reference, for judge(). */
export function readerVerdictInput(reference: readonly ReplayStep[], learner: { ok: true; steps: readonly ReplayStep[] } | { ok: false; error: { name: string; message: string } }): ReplayComparison | { error: string; push: number } {
  if (!learner.ok) return { error: `${learner.error.name}: ${learner.error.message}`, push: 0 };
  const threw = learner.steps.find((step) => step.error !== null);
  if (threw) return { error: threw.error!, push: threw.push };
  return compareReplays(reference, learner.steps);
}
