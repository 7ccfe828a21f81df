// How each kind of plan step is carried out against the live run. Each returns the step's outcome
// and leaves notes where something went wrong; the stepper store owns the records they write to.

import { getI18n } from 'react-i18next';
import { idKey } from '../../protocol/jsonrpc.ts';
import type { CallToolResult, InitializeResult, ToolInfo } from '../../protocol/mcp.ts';
import { mcpResultToText } from '../../protocol/mcp-result-to-text.ts';
import type { CallOutcome, DriverKind, DriverOp, ErrorInfo, RegisterRunner } from '../../sandbox/client-driver.ts';
import type { LiveRun } from './live-run.ts';
import type { PlanStep } from './step-plan.ts';
import type { StepperTimeouts, WaitingFor } from './stepper-types.ts';
import { waitingRows, withOutcome, type Note, type StepOutcome, type StepRecord } from './stepper-records.ts';
import type { ProtocolText } from './text.ts';

export interface StepContext {
  index: number;
  run: LiveRun;
  register: RegisterRunner;
  timeouts: StepperTimeouts;
  /** Set when the driving client could not be created; client steps then fail with it. */
  loadError: ErrorInfo | null;
  clientKind: DriverKind;
  current(): StepRecord | undefined;
  /** True once the run was restarted: stop without touching anything. */
  stale(): boolean;
  waiting(what: WaitingFor): void;
  note(note: Omit<Note, 'seq' | 'drawnAt'>): void;
  updateCurrent(change: (record: StepRecord) => StepRecord): void;
  tools(): ToolInfo[] | null;
  setTools(tools: ToolInfo[]): void;
}

export function executeStep(step: PlanStep, context: StepContext): Promise<StepOutcome> {
  switch (step.kind) {
    case 'initialize':
      return sendStep({ op: 'initialize' }, context);
    case 'connect':
      // For the dual-era driver `initialize` is connect(): the probe, and the fallback if needed.
      // Its notes say connect(): no initialize crossed the wire unless the probe fell back.
      return sendStep({ op: 'initialize' }, context, 'connect');
    case 'fallback':
      return fallbackStep(context);
    case 'notify-initialized':
      return sendStep({ op: 'notifyInitialized' }, context);
    case 'list-tools':
      return sendStep({ op: 'listTools' }, context);
    case 'call-tool':
      return sendStep({ op: 'callTool', name: step.name, args: step.args }, context);
    case 'raw':
      return rawStep(step.message, context);
    case 'receive':
      return receiveStep(context);
    case 'close':
      return closeStep(context);
    case 'exit':
      return exitStep(context);
    case 'register':
      return registerStep(step.prefix, context);
  }
}

function perform(op: DriverOp, context: StepContext): Promise<CallOutcome> {
  if (context.loadError) return Promise.resolve({ ok: false, error: context.loadError });
  return context.run.driver.perform(op);
}

/** A client method that writes a frame: the step is over once the frame is on stdin (or it threw). */
async function sendStep(op: DriverOp, context: StepContext, name: string = op.op): Promise<StepOutcome> {
  const { run, timeouts } = context;
  const before = run.stdinFrames;
  let failedNow = false;
  let markFailed!: () => void;
  const failed = new Promise<void>((resolve) => {
    markFailed = resolve;
  });
  const stepIndex = context.index;
  // The call may settle much later (initialize waits for its answer): its outcome is recorded then,
  // on whatever step is current, which is where the learner sees it happen.
  void perform(op, context).then((outcome) => {
    if (context.stale()) return;
    recordOutcome(op, outcome, stepIndex, context, name);
    if (!outcome.ok) {
      failedNow = true;
      markFailed();
    }
  });
  context.waiting('bytes-out');
  const sent = await run.waitForStdinFrames(before + 1, timeouts.sendMs, failed);
  await run.driver.flush();
  if (context.stale()) return 'error';
  if (failedNow) return 'error';
  if (sent) return 'ok';
  context.note({ lane: 'client', severity: 'warning', kind: 'nothing-sent', who: context.clientKind, detail: `${name}(): nothing reached the server's stdin within ${seconds(timeouts.sendMs)}`, error: null });
  return 'timeout';
}

/**
 * Runs whose client connected in the 2026-07-28 era. That client has no lifecycle events of its
 * own (no handshake to move through), so the stepper draws its states: ready once connect()
 * settled on a version, closed once close() ended stdin.
 */
const modernRuns = new WeakSet<object>();

function recordOutcome(op: DriverOp, outcome: CallOutcome, stepIndex: number, context: StepContext, name: string = op.op): void {
  const record = context.current();
  const sentRequest = record === undefined ? undefined : findRequestOfStep(context, stepIndex);
  if (!outcome.ok) {
    context.note({ lane: 'client', severity: 'error', kind: 'threw', who: context.clientKind, detail: `${name}(): ${outcome.error.name}: ${outcome.error.message}`, error: outcome.error });
    if (sentRequest) context.updateCurrent((current) => ({ ...current, pending: withOutcome(current.pending, sentRequest, { ok: false, error: outcome.error }) }));
    return;
  }
  if (op.op === 'listTools' && Array.isArray(outcome.value)) context.setTools(outcome.value as ToolInfo[]);
  const summary = summarize(op, outcome.value);
  if (summary === null) return;
  context.note({ lane: 'client', severity: 'info', kind: 'result', who: context.clientKind, detail: `${name}() → ${summary}`, error: null });
  if (isEraConnect(outcome.value) && outcome.value.era === 'modern') {
    const cause = outcome.value.cause;
    modernRuns.add(context.run);
    context.updateCurrent((current) => ({ ...current, clientState: 'ready', transition: { from: current.clientState ?? 'new', to: 'ready', cause } }));
  }
  if (sentRequest) context.updateCurrent((current) => ({ ...current, pending: withOutcome(current.pending, sentRequest, { ok: true, summary }) }));
}

/** The id key of the request the client wrote during step `stepIndex`. */
function findRequestOfStep(context: StepContext, stepIndex: number): string | undefined {
  const record = context.current();
  const rows = record?.pending ?? [];
  const row = rows.find((candidate) => candidate.sentInStep === stepIndex && !candidate.aroundClient);
  return row ? idKey(row.id) : undefined;
}

/**
 * What the client's method gave back, in one line; null for methods that return nothing. The words
 * around the server's data are the page's (`pending.*` in the `protocol` namespace), in the language of the moment
 * the call settled; `t` defaults to the page's i18next instance.
 */
export function summarize(op: DriverOp, value: unknown, t: ProtocolText = pageText()): string | null {
  try {
    switch (op.op) {
      case 'initialize': {
        // The dual-era client's connect(): which era the probe found, and why.
        if (isEraConnect(value)) return t('pending.connectSummary', { era: value.era, protocol: value.protocolVersion, cause: value.cause });
        const result = value as InitializeResult;
        return t('pending.initializeSummary', { name: result.serverInfo.name, version: result.serverInfo.version, protocol: result.protocolVersion });
      }
      case 'listTools':
        return (value as ToolInfo[]).map((tool) => tool.name).join(', ');
      case 'callTool':
        return mcpResultToText(value as CallToolResult);
      default:
        return null;
    }
  } catch {
    return JSON.stringify(value) ?? String(value);
  }
}

function isEraConnect(value: unknown): value is { era: string; protocolVersion: string; cause: string } {
  return typeof value === 'object' && value !== null && 'era' in value && 'cause' in value && 'protocolVersion' in value;
}

/**
 * The protocol view's text through the i18next instance the page runs (react-i18next's, set when
 * it initialises), so text made outside React follows the UI language; the bare key without a page
 * or before the `protocol` namespace has loaded (as the keys locale shows it).
 */
function pageText(): ProtocolText {
  const i18n = getI18n() as ReturnType<typeof getI18n> | undefined;
  if (!i18n?.isInitialized || !i18n.hasLoadedNamespace('protocol')) return (key) => key;
  const t = i18n.getFixedT(null, 'protocol') as unknown as (key: string, values?: object) => string;
  return (key, values) => t(key, values);
}

async function rawStep(message: Parameters<LiveRun['writeAroundClient']>[0], context: StepContext): Promise<StepOutcome> {
  const { run } = context;
  const before = run.stdinFrames;
  run.writeAroundClient(message);
  context.waiting('bytes-out');
  const sent = await run.waitForStdinFrames(before + 1, context.timeouts.sendMs, new Promise(() => {}));
  return sent ? 'ok' : 'timeout';
}

/** Let the client read held server bytes, chunk by chunk, up to and including the next response. */
async function receiveStep(context: StepContext): Promise<StepOutcome> {
  const { run, timeouts } = context;
  const deadline = Date.now() + timeouts.receiveMs;
  context.waiting('response');
  for (;;) {
    if (context.stale()) return 'error';
    const released = run.releaseNext();
    if (released) {
      if (released.completedResponse || released.closed) {
        await run.driver.flush();
        // The dual-era client may write at once in reply (the fallback's initialize, a retry).
        if (writesOnItsOwn(run.driver)) {
          await run.waitForClientWrites(timeouts.sendMs);
          await run.driver.flush();
        }
        if (released.completedResponse) return 'ok';
        return waitingRows(context.current()?.pending ?? []).length > 0 ? 'error' : 'ok';
      }
      continue;
    }
    const waiting = waitingRows(context.current()?.pending ?? []);
    if (waiting.length === 0) {
      context.note({ lane: 'pipe', severity: 'info', kind: 'nothing-to-read', who: 'stepper', detail: 'no request is waiting for an answer', error: null });
      return 'skipped';
    }
    const left = deadline - Date.now();
    if (left <= 0 || !(await run.waitForHeld(left))) {
      if (context.stale()) return 'error';
      await run.driver.flush();
      const what = waiting.map((row) => `${row.method} #${JSON.stringify(row.id)}`).join(', ');
      context.note({ lane: 'pipe', severity: 'error', kind: 'no-response', who: 'server', detail: `no response to ${what} within ${seconds(timeouts.receiveMs)}`, error: null });
      return 'timeout';
    }
  }
}

/**
 * After the probe's answer: a legacy server made the client send initialize, so read its answer;
 * a modern one left nothing waiting, and the step says the handshake was not needed.
 */
async function fallbackStep(context: StepContext): Promise<StepOutcome> {
  if (waitingRows(context.current()?.pending ?? []).length > 0) return receiveStep(context);
  await context.run.driver.flush();
  context.note({ lane: 'client', severity: 'info', kind: 'nothing-to-read', who: 'stepper', detail: 'the server answered server/discover, so no fallback handshake is needed', error: null });
  return 'skipped';
}

async function closeStep(context: StepContext): Promise<StepOutcome> {
  const { run } = context;
  let threw = false;
  const settled = perform({ op: 'close' }, context).then((outcome) => {
    if (context.stale() || outcome.ok) return;
    threw = true;
    recordOutcome({ op: 'close' }, outcome, context.index, context);
  });
  context.waiting('eof');
  // close() is synchronous: once it has returned (or thrown) without ending stdin, it never will.
  const ended = await Promise.race([run.waitForEnd(context.timeouts.closeMs), settled.then(() => run.driver.flush()).then(() => run.gate.stdinEnded)]);
  await run.driver.flush();
  if (context.stale()) return 'error';
  if (ended && modernRuns.has(run) && context.current()?.clientState === 'ready') {
    context.updateCurrent((current) => ({ ...current, clientState: 'closed', transition: { from: 'ready', to: 'closed', cause: 'close(): stdin ended (no session to end in 2026-07-28)' } }));
  }
  if (ended) return 'ok';
  if (threw) return 'error';
  context.note({ lane: 'client', severity: 'warning', kind: 'stdin-open', who: context.clientKind, detail: "close() did not end the server's stdin, so the server keeps waiting for input", error: null });
  return 'error';
}

async function exitStep(context: StepContext): Promise<StepOutcome> {
  const { run } = context;
  context.waiting('exit');
  run.releaseAll();
  // With stdin still open the echo server has no reason to exit: look briefly, do not wait it out.
  const exited = await run.waitForExit(run.gate.stdinEnded ? context.timeouts.exitMs : OPEN_STDIN_EXIT_WAIT_MS);
  if (context.stale()) return 'error';
  run.releaseAll();
  await run.driver.flush();
  if (exited) return 'ok';
  const why = run.gate.stdinEnded ? `after ${seconds(context.timeouts.exitMs)}` : 'because its stdin is still open';
  context.note({ lane: 'server', severity: 'warning', kind: 'still-running', who: 'server', detail: `the server has not exited ${why}`, error: null });
  return 'timeout';
}

async function registerStep(prefix: string, context: StepContext): Promise<StepOutcome> {
  context.waiting('registry');
  const tools = context.tools();
  if (tools === null) {
    context.note({ lane: 'client', severity: 'error', kind: 'register-refused', who: 'stepper', detail: 'no tools/list result to register', error: null });
    return 'error';
  }
  const outcome = await context.register.run(prefix, tools);
  if (context.stale()) return 'error';
  context.updateCurrent((record) => ({ ...record, registry: outcome }));
  const prefixText = prefix === '' ? 'no prefix' : `prefix "${prefix}"`;
  if (outcome.ok) {
    const added = outcome.registry.filter((entry) => entry.source === 'mcp').map((entry) => entry.name);
    context.note({ lane: 'client', severity: 'info', kind: 'registered', who: context.register.kind, detail: `registerMcpTools (${prefixText}) → ${String(outcome.count)}: ${added.join(', ')}`, error: null });
    return 'ok';
  }
  const error = outcome.error;
  context.note({ lane: 'client', severity: 'error', kind: 'register-refused', who: context.register.kind, detail: `registerMcpTools (${prefixText}): ${error ? `${error.name}: ${error.message}` : 'failed'}`, error });
  return 'error';
}

const OPEN_STDIN_EXIT_WAIT_MS = 300;

/** Drivers whose client sends requests without being asked (era-driver.ts) say so. */
function writesOnItsOwn(driver: object): boolean {
  return (driver as { writesOnItsOwn?: boolean }).writesOnItsOwn === true;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
