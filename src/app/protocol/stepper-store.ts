// The handshake stepper as an explicit state machine (tldraw-style: a closed status union, no UI).
// Each Step performs one plan step against the live server and records what happened; stepping
// back only moves a cursor over those records, so it redraws from the log and sends nothing.
//
//   idle --step--> starting --server up--> stepping --step done--> ready --step--> stepping …
//   stepping --last step done--> done        any --server or driver lost--> failed
//   any --restart / load--> idle

import type { FramingName } from '../../protocol/framing/types.ts';
import type { ToolInfo } from '../../protocol/mcp.ts';
import { createStore, ExternalStore, type Store } from '../store/create-store.ts';
import type { ClientDriver, DriverKind, ErrorInfo, RegisterRunner } from '../../sandbox/client-driver.ts';
import { targetFromStream, type InspectTarget } from './inspect-target.ts';
import { LiveRun } from './live-run.ts';
import { HANDSHAKE_PLAN, type PlanStep } from './step-plan.ts';
import { executeStep, type StepContext } from './step-execution.ts';
import { withRequest, withResponse, type Arrow, type Note, type StepOutcome, type StepRecord } from './stepper-records.ts';
import { DEFAULT_TIMEOUTS, type RunConfig, type ServerPort, type StepperState, type StepperStatus } from './stepper-types.ts';

export * from './stepper-types.ts';

export interface StepperOptions {
  server: ServerPort;
  /** The run's config too: an era run (config.eraClient) is driven by the dual-era client. */
  createDriver(kind: DriverKind, config: RunConfig): ClientDriver;
  createRegisterRunner(kind: DriverKind): RegisterRunner;
  now?: () => number;
  /** Pause between steps of "run to end", so each arrow can be seen (and announced). */
  autoDelayMs?: number;
}

const HELD_UPDATE_MS = 50;

export const HANDSHAKE_CONFIG: RunConfig = { plan: HANDSHAKE_PLAN, scenario: null, client: 'reference', register: 'reference', settings: null };

export class StepperStore extends ExternalStore<StepperState> {
  protected readonly store: Store<StepperState>;
  private run: LiveRun | null = null;
  private register: RegisterRunner | null = null;
  /** Bumped by restart: an older step that is still awaiting something stops when it resumes. */
  private token = 0;
  private busy = false;
  private seq = 0;
  private lastTools: ToolInfo[] | null = null;
  /** Why the driving client could not even be created: every client step then reports it. */
  private loadError: ErrorInfo | null = null;
  private readonly now: () => number;
  private heldTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: StepperOptions) {
    super();
    this.now = options.now ?? (() => performance.now());
    this.store = createStore<StepperState>({ status: { status: 'idle' }, config: HANDSHAKE_CONFIG, records: [], cursor: 0, server: null, heldBytes: 0, runId: 0 });
  }

  get isBusy(): boolean {
    return this.busy;
  }

  // ---- controls ----

  /** One step forward: over the recorded log when stepped back, else live. */
  async step(): Promise<void> {
    if (this.busy) return;
    const { cursor, records } = this.getSnapshot();
    if (cursor < records.length) {
      this.update({ cursor: cursor + 1 });
      return;
    }
    await this.stepLive(false);
  }

  /** One step back: redraws from the log, sends nothing. */
  back(): void {
    const { cursor } = this.getSnapshot();
    if (this.busy || cursor === 0) return;
    this.update({ cursor: cursor - 1 });
  }

  async runToEnd(): Promise<void> {
    if (this.busy) return;
    this.update({ cursor: this.getSnapshot().records.length });
    const delay = this.options.autoDelayMs ?? 120;
    let first = true;
    for (;;) {
      if (!first && delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      first = false;
      if (!(await this.stepLive(true))) return;
    }
  }

  /** Show the first `count` steps (a deep link): from the log when recorded, else stepping live. */
  async goTo(count: number): Promise<void> {
    if (this.busy) return;
    const target = Math.max(0, Math.min(count, this.getSnapshot().config.plan.length));
    if (target <= this.getSnapshot().records.length) {
      this.update({ cursor: target });
      return;
    }
    this.update({ cursor: this.getSnapshot().records.length });
    while (this.getSnapshot().records.length < target) {
      if (!(await this.stepLive(true))) return;
    }
  }

  /** Throw the run away (the server is stopped) and start again from the first step. */
  restart(): void {
    this.token++;
    this.busy = false;
    this.run?.dispose();
    this.run = null;
    this.register = null;
    this.lastTools = null;
    this.loadError = null;
    this.update({ status: { status: 'idle' }, records: [], cursor: 0, server: null, heldBytes: 0, runId: this.getSnapshot().runId + 1 });
  }

  /** Run a different plan (a failure scenario), or the handshake with another driver. */
  load(config: RunConfig): void {
    this.restart();
    this.update({ config });
  }

  setClient(kind: DriverKind): void {
    const { config } = this.getSnapshot();
    if (config.client === kind && config.scenario === null) return;
    // The scene's run stays (a 2026-07-28 run driven by the learner's exercise 7); a lab card's
    // scenario goes back to the handshake.
    this.load({ ...(config.scenario === null ? config : HANDSHAKE_CONFIG), client: kind, register: kind });
  }

  dispose(): void {
    this.restart();
  }

  /** Every chunk one direction carried in the current run, as the client's side received them. */
  streamChunks(direction: 'c2s' | 's2c'): Uint8Array[] {
    const stream = this.run?.streams[direction];
    return stream ? stream.chunks.map((chunk) => stream.chunkBytes(chunk)) : [];
  }

  /** The framing of the current run's server, if one runs. */
  get runFraming(): FramingName | null {
    return this.run?.framing ?? null;
  }

  /** The byte inspector's view of an arrow's frame, while its run is the current one. */
  inspect(seq: number): InspectTarget | null {
    const run = this.run;
    if (run === null) return null;
    const arrow = this.getSnapshot().records.flatMap((record) => record.arrows).find((candidate) => candidate.seq === seq);
    if (!arrow?.frame) return null;
    return targetFromStream(run.streams[arrow.direction], run.framing, {
      ...arrow.frame,
      kind: arrow.kind,
      method: arrow.method,
      id: arrow.id,
      value: arrow.kind === 'unreadable' ? null : arrow.value,
      problem: arrow.detail,
    });
  }

  // ---- one live step ----

  /** Perform the next plan step live. True when it went through and more steps remain. */
  private async stepLive(auto: boolean): Promise<boolean> {
    const state = this.getSnapshot();
    const index = state.records.length;
    const step = state.config.plan[index];
    if (this.busy || step === undefined || state.status.status === 'failed') return false;
    const token = this.token;
    this.busy = true;
    try {
      this.setStatus({ status: 'stepping', index, waitingFor: 'server', auto });
      if (this.run === null && !(await this.begin(token))) return false;
      if (token !== this.token) return false;
      this.openRecord(index, step);
      const outcome = await executeStep(step, this.context(index, auto, token));
      if (token !== this.token) return false;
      this.closeRecord(outcome);
      const done = this.getSnapshot().records.length >= this.getSnapshot().config.plan.length;
      if (this.getSnapshot().status.status !== 'failed') this.setStatus(done ? { status: 'done' } : { status: 'ready' });
      return !done && this.getSnapshot().status.status !== 'failed';
    } finally {
      if (token === this.token) this.busy = false;
    }
  }

  private async begin(token: number): Promise<boolean> {
    const { config } = this.getSnapshot();
    const base = config.settings ?? this.options.server.settings();
    const settings = config.serverEra === undefined ? base : { ...base, era: config.serverEra };
    const started = await this.options.server.start(settings);
    if (token !== this.token) {
      if (started.ok) started.wire.kill();
      return false;
    }
    if (!started.ok) {
      this.setStatus({ status: 'failed', reason: started.reason });
      return false;
    }
    const run = new LiveRun(started.wire, settings.framing, this.options.createDriver(config.client, config), {
      arrow: (arrow) => this.addArrow(arrow),
      driverEvent: (event) => {
        if (event.type === 'state') this.updateCurrent((record) => ({ ...record, clientState: event.to, transition: { from: event.from, to: event.to, cause: event.cause } }));
        else if (event.type === 'protocol-error') this.addNote({ lane: 'client', severity: 'warning', kind: 'protocol-error', who: config.client, detail: event.detail, error: null });
        else if (event.type === 'uncaught') this.addNote({ lane: 'client', severity: 'error', kind: 'uncaught', who: config.client, detail: event.error.message, error: event.error });
        else if (event.type === 'crashed') {
          this.addNote({ lane: 'client', severity: 'error', kind: 'crashed', who: config.client, detail: event.reason, error: null });
          this.setStatus({ status: 'failed', reason: event.reason });
        }
      },
      changed: () => this.scheduleHeldUpdate(),
      hostError: (message) => this.addNote({ lane: 'server', severity: 'error', kind: 'crashed', who: 'server', detail: message, error: null }),
    }, this.now);
    this.run = run;
    this.register = this.options.createRegisterRunner(config.register);
    this.update({ server: { ...settings, host: started.wire.host } });
    const created = await run.startDriver();
    if (token !== this.token) return false;
    if (!created.ok) this.loadError = created.error;
    return true;
  }

  private context(index: number, auto: boolean, token: number): StepContext {
    return {
      index,
      run: this.run!,
      register: this.register!,
      timeouts: { ...DEFAULT_TIMEOUTS, ...this.getSnapshot().config.timeouts },
      loadError: this.loadError,
      clientKind: this.getSnapshot().config.client,
      current: () => this.current(),
      stale: () => token !== this.token,
      waiting: (waitingFor) => this.setStatus({ status: 'stepping', index, waitingFor, auto }),
      note: (note) => this.addNote(note),
      updateCurrent: (change) => this.updateCurrent(change),
      tools: () => this.lastTools,
      setTools: (tools) => {
        this.lastTools = tools;
      },
    };
  }

  // ---- records ----

  private current(): StepRecord | undefined {
    const { records } = this.getSnapshot();
    return records[records.length - 1];
  }

  private openRecord(index: number, step: PlanStep): void {
    const previous = this.current();
    const record: StepRecord = {
      index,
      step,
      outcome: 'in-progress',
      arrows: [],
      notes: [],
      clientState: previous?.clientState ?? (this.run ? 'new' : null),
      transition: null,
      pending: previous ? [...previous.pending] : [],
      registry: previous?.registry ?? null,
      heldBytes: this.run?.gate.heldBytes ?? 0,
    };
    const records = [...this.getSnapshot().records, record];
    this.update({ records, cursor: records.length });
  }

  private closeRecord(outcome: StepOutcome): void {
    this.updateCurrent((record) => ({ ...record, outcome, heldBytes: this.run?.gate.heldBytes ?? 0 }));
  }

  private addArrow(partial: Omit<Arrow, 'seq' | 'drawnAt'>): void {
    const arrow: Arrow = { ...partial, seq: this.seq++, drawnAt: this.now() };
    this.updateCurrent((record) => {
      let pending = withRequest(record.pending, arrow, record.index);
      pending = withResponse(pending, arrow, record.index);
      return { ...record, arrows: [...record.arrows, arrow], pending };
    });
  }

  private addNote(partial: Omit<Note, 'seq' | 'drawnAt'>): void {
    const note: Note = { ...partial, seq: this.seq++, drawnAt: this.now() };
    this.updateCurrent((record) => ({ ...record, notes: [...record.notes, note] }));
  }

  /** Change the newest record (the step in progress, or the last one between steps). */
  private updateCurrent(change: (record: StepRecord) => StepRecord): void {
    const { records } = this.getSnapshot();
    if (records.length > 0) this.updateRecord(records.length - 1, change);
  }

  private updateRecord(at: number, change: (record: StepRecord) => StepRecord): void {
    const { records } = this.getSnapshot();
    const record = records[at];
    if (record === undefined) return;
    this.update({ records: records.map((candidate, i) => (i === at ? change(candidate) : candidate)) });
  }

  /**
   * The held byte count changes with every chunk, and split-writes sends hundreds of tiny ones:
   * publish it at most every HELD_UPDATE_MS instead of re-rendering the view per chunk.
   */
  private scheduleHeldUpdate(): void {
    if (this.heldTimer !== undefined) return;
    this.heldTimer = setTimeout(() => {
      this.heldTimer = undefined;
      this.update({ heldBytes: this.run?.gate.heldBytes ?? 0 });
    }, HELD_UPDATE_MS);
  }

  private setStatus(status: StepperStatus): void {
    this.update({ status });
  }

  private update(patch: Partial<StepperState>): void {
    this.store.setState((state) => ({ ...state, ...patch }));
  }
}
