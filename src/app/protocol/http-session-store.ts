// The HTTP stepper's state machine: one Streamable HTTP session against the real mcp-http server
// on the live host, a step at a time —
//
//   initialize   POST initialize                      → 200, JSON, Mcp-Session-Id
//   initialized  POST notifications/initialized       → 202, no body
//   listen       GET (the client opens it by itself)  → 200 and an event stream, or 405
//   call         POST tools/call with a progress token → 200, an event stream: progress, then the result
//   delete       DELETE                               → 200: the session is over
//
// In the 2026-07-28 scene (era 'modern') there is no session at all:
//
//   discover     POST server/discover                      → 200, JSON, no Mcp-Session-Id
//   list         POST tools/list (Mcp-Method)              → 200, JSON
//   modern-call  POST tools/call (Mcp-Method, Mcp-Name)    → 200, an event stream without event ids
//
// Every arrow is a relayed TCP connection from the wire's tap events (one request and one response
// per connection), so what the diagram and the inspector show is the bytes that crossed it.
// Who speaks is the learner's choice (http-step-clients.ts): the reference McpClient on the page,
// or "your code" — the learner's exercise-6 transport in the learner worker, its requests sent
// over the same wire by the page's HTTP/1.1 client.
// React-free: the view subscribes through useSyncExternalStore.

import type { JsonRpcId } from '../../protocol/jsonrpc.ts';
import type { HostKind, ProgramSpec, Wire } from '../../runtime/host.ts';
import type { HttpWire } from '../../runtime/http-tap-wire.ts';
import { base64ToBytes, type TapEvent } from '../../runtime/tap-protocol.ts';
import { createStore, ExternalStore, type Store } from '../store/create-store.ts';
import { HttpExchangeRecorder, type HttpExchangeRecord as ExchangeRecord } from './http-exchanges.ts';
import { HTTP_STEP_TIMEOUT_MS, learnerStepClient, referenceStepClient, type HttpStepClient } from './http-step-clients.ts';
import type { LearnerHttpDriver } from './learner-http-driver.ts';
import { modernStepClient, type ModernHttpStepClient } from './http-modern-step-client.ts';

/** Who drives the session: the reference client, or the learner's exercise-6 module. */
export type HttpClientKind = 'reference' | 'learner';

export const HTTP_STEPS = ['initialize', 'initialized', 'listen', 'call', 'delete'] as const;
export const MODERN_HTTP_STEPS = ['discover', 'list', 'modern-call'] as const;
export type HttpStepId = (typeof HTTP_STEPS)[number] | (typeof MODERN_HTTP_STEPS)[number];

/** Which era the session speaks: the handshake (2025-11-25, a session) or 2026-07-28 (none). */
export type HttpEra = 'handshake' | 'modern';

export function httpSteps(era: HttpEra): readonly HttpStepId[] {
  return era === 'modern' ? MODERN_HTTP_STEPS : HTTP_STEPS;
}

export const HTTP_PROGRAM: ProgramSpec = { program: 'mcp-http', framing: 'ndjson', faults: [] };
export const PROGRESS_TOKEN = 'http-stepper';

/** One relayed connection (the recorder's record, its step one of the stepper's). */
export type HttpExchangeRecord = ExchangeRecord<HttpStepId>;

/**
 * What the stepper's tools/call echoes: multi-byte on purpose, so "bytes are not characters" shows
 * over HTTP too: the text is 28 UTF-8 bytes for 21 characters, and Content-Length and chunk sizes
 * count the bytes.
 */
export const HTTP_ECHO_TEXT = 'hello over HTTP, 你好 🌍';

export interface HttpHolds {
  sessionId: string | null;
  protocolVersion: string | null;
  pending: { id: JsonRpcId; method: string }[];
  /** Event streams the client is reading now (the GET stream, a POST's SSE response). */
  openStreams: number;
}

export type HttpStepperStatus =
  | { status: 'idle' }
  | { status: 'stepping'; step: HttpStepId }
  | { status: 'ready' }
  | { status: 'done' }
  | { status: 'failed'; reason: string; why?: HttpWaitFailure };

/**
 * Why the stepper itself stopped waiting (not an error of the client's code, which is shown as
 * thrown): a code the view words in the page's language (http-failure-text.ts); `reason` keeps the
 * English sentence for logs and traces.
 */
export type HttpWaitFailure = { code: 'wire-timeout'; seconds: number; step: 'initialized' | 'listen' | 'delete' } | { code: 'session-ended' };

/** An Error that carries its `HttpWaitFailure` to the step that catches it. */
class HttpWaitError extends Error {
  readonly why: HttpWaitFailure;
  constructor(message: string, why: HttpWaitFailure) {
    super(message);
    this.why = why;
  }
}

export interface HttpSessionState {
  status: HttpStepperStatus;
  era: HttpEra;
  client: HttpClientKind;
  host: HostKind | null;
  /** Steps finished. */
  cursor: number;
  exchanges: HttpExchangeRecord[];
  holds: HttpHolds;
  /** Progress notifications that reached the client, in order (worded by progress-seen-text.ts). */
  progress: ProgressSeen[];
}

/**
 * One `notifications/progress` as the client saw it: its values as text (a server may send any
 * JSON), and its message (null when it had none). Kept as data, not a sentence, so the view says it
 * in the page's language.
 */
export interface ProgressSeen {
  progress: string;
  total: string;
  message: string | null;
}

export interface HttpSessionDeps {
  /** Start mcp-http on the live host. */
  startProgram(spec: ProgramSpec): Promise<Wire>;
  /** The learner's exercise-6 module in a fresh learner worker; without it only the reference drives. */
  createLearnerDriver?(): Promise<{ driver: LearnerHttpDriver; file: string }> | { driver: LearnerHttpDriver; file: string };
  /** Longest wait for one answer (default HTTP_STEP_TIMEOUT_MS). */
  stepTimeoutMs?: number;
}

const INITIAL: HttpSessionState = {
  status: { status: 'idle' },
  era: 'handshake',
  client: 'reference',
  host: null,
  cursor: 0,
  exchanges: [],
  holds: { sessionId: null, protocolVersion: null, pending: [], openStreams: 0 },
  progress: [],
};

export class HttpSessionStore extends ExternalStore<HttpSessionState> {
  protected readonly store: Store<HttpSessionState> = createStore<HttpSessionState>(INITIAL);
  private wire: HttpWire | null = null;
  private client: HttpStepClient | null = null;
  private modern: ModernHttpStepClient | null = null;
  private run = 0;
  private currentStep: HttpStepId | null = null;
  private recorder = new HttpExchangeRecorder<HttpStepId>();
  /** The session's tap events exactly as they arrived, for "Save as trace". */
  private events: TapEvent[] = [];
  private started: string | null = null;

  constructor(private readonly deps: HttpSessionDeps) {
    super();
  }

  /** The next step, or nothing when the session is over. Resolves when the step's answer arrived. */
  async step(): Promise<void> {
    const state = this.getSnapshot();
    if (state.status.status === 'stepping' || state.status.status === 'failed') return;
    const steps = httpSteps(state.era);
    const step = steps[state.cursor];
    if (step === undefined) return;
    const run = this.run;
    this.currentStep = step;
    this.update({ status: { status: 'stepping', step } });
    try {
      await this.perform(step);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (run === this.run) this.update({ status: { status: 'failed', reason, ...(error instanceof HttpWaitError ? { why: error.why } : {}) } });
      return;
    }
    if (run !== this.run) return;
    const cursor = state.cursor + 1;
    this.update({ cursor, status: cursor >= steps.length ? { status: 'done' } : { status: 'ready' } });
  }

  async runToEnd(): Promise<void> {
    while (this.getSnapshot().cursor < httpSteps(this.getSnapshot().era).length && this.getSnapshot().status.status !== 'failed') {
      const before = this.getSnapshot().cursor;
      await this.step();
      if (this.getSnapshot().cursor === before) return;
    }
  }

  /** Forget the session and stop its server. */
  restart(): void {
    this.run++;
    this.wire?.kill();
    this.wire = null;
    this.client?.dispose();
    this.client = null;
    this.modern?.dispose();
    this.modern = null;
    this.recorder = new HttpExchangeRecorder<HttpStepId>();
    this.events = [];
    this.started = null;
    this.store.setState({ ...INITIAL, client: this.getSnapshot().client, era: this.getSnapshot().era });
  }

  /** Choose the era (the view's scene); a session in progress starts over. Only the reference client speaks 2026-07-28 here. */
  setEra(era: HttpEra): void {
    if (era === this.getSnapshot().era) return;
    this.update({ era, ...(era === 'modern' ? { client: 'reference' as const } : {}) });
    this.restart();
  }

  /** Choose who drives; a session in progress starts over. */
  setClient(client: HttpClientKind): void {
    if (client === 'learner' && (!this.deps.createLearnerDriver || this.getSnapshot().era === 'modern')) return;
    if (client === this.getSnapshot().client) return;
    this.update({ client });
    this.restart();
  }

  private async perform(step: HttpStepId): Promise<void> {
    switch (step) {
      case 'initialize': {
        const client = await this.connect();
        const result = await this.pending(0, 'initialize', () => client.initialize());
        this.updateHolds({ sessionId: this.wire?.sessionId ?? this.getSnapshot().holds.sessionId, protocolVersion: result.protocolVersion });
        return;
      }
      case 'initialized': {
        // A notification has no answer in JSON-RPC; over HTTP its answer is the 202.
        const answered = this.waitForExchange((exchange) => exchange.request === 'POST notifications/initialized' && exchange.status !== null, 'a POST of notifications/initialized answered', 'initialized');
        await this.client!.notifyInitialized();
        await answered;
        return;
      }
      case 'listen':
        // The client opened the GET stream by itself after initialized; wait for the server's answer.
        await this.waitForExchange((exchange) => exchange.request === 'GET' && exchange.status !== null, 'the GET stream the client opens after initialized', 'listen');
        return;
      case 'call': {
        const client = this.client!;
        await this.pending(1, 'tools/call', () => client.callWithProgress({ text: HTTP_ECHO_TEXT }, PROGRESS_TOKEN));
        return;
      }
      case 'delete': {
        const wire = this.wire!;
        const closed = new Promise<void>((resolve) => wire.onClose(() => resolve()));
        const answered = this.waitForExchange((exchange) => exchange.request === 'DELETE' && exchange.closed, 'a DELETE answered', 'delete');
        await this.client!.end();
        await answered;
        // The reference wire stops its server once DELETE is answered; the learner's session ends here.
        if (this.getSnapshot().client === 'learner') wire.kill();
        await closed;
        this.updateHolds({ sessionId: null });
        return;
      }
      case 'discover': {
        const client = await this.connectModern();
        const found = await this.pending(0, 'server/discover', () => client.discover());
        this.updateHolds({ protocolVersion: found.protocolVersion });
        return;
      }
      case 'list': {
        const client = this.modern!;
        await this.pending(1, 'tools/list', () => client.listTools());
        return;
      }
      case 'modern-call': {
        const client = this.modern!;
        await this.pending(2, 'tools/call', () => client.callWithProgress({ text: HTTP_ECHO_TEXT }, PROGRESS_TOKEN));
        return;
      }
    }
  }

  /** The 2026-07-28 scene's client on a fresh wire: nothing is sent until discover. */
  private async connectModern(): Promise<ModernHttpStepClient> {
    const run = this.run;
    const wire = await this.startWire(run);
    const client = modernStepClient(wire, this.deps.stepTimeoutMs);
    client.onProgress((params) => {
      if (run === this.run) this.addProgress(params);
    });
    this.modern = client;
    return client;
  }

  private async startWire(run: number): Promise<HttpWire> {
    const wire = (await this.deps.startProgram(HTTP_PROGRAM)) as HttpWire;
    if (run !== this.run) {
      wire.kill();
      throw new Error('restarted');
    }
    this.wire = wire;
    this.started = new Date().toISOString();
    this.update({ host: wire.host });
    wire.onTapEvent((event) => {
      if (run === this.run) this.record(event);
    });
    return wire;
  }

  private addProgress(params: Record<string, unknown> | undefined): void {
    const seen: ProgressSeen = { progress: String(params?.progress), total: String(params?.total ?? '?'), message: typeof params?.message === 'string' ? params.message : null };
    this.update({ progress: [...this.getSnapshot().progress, seen] });
  }

  private async connect(): Promise<HttpStepClient> {
    const run = this.run;
    const wire = await this.startWire(run);
    const learner = this.getSnapshot().client === 'learner' ? await this.deps.createLearnerDriver?.() : undefined;
    const client = learner ? await learnerStepClient(learner.driver, wire, learner.file) : referenceStepClient(wire);
    if (run !== this.run) {
      client.dispose();
      throw new Error('restarted');
    }
    client.onProgress((params) => {
      if (run === this.run) this.addProgress(params);
    });
    this.client = client;
    return client;
  }

  /** Run a request, listed as pending in what the client holds until it is answered. */
  private async pending<T>(id: JsonRpcId, method: string, send: () => Promise<T>): Promise<T> {
    this.updateHolds({ pending: [...this.getSnapshot().holds.pending, { id, method }] });
    try {
      return await send();
    } finally {
      this.updateHolds({ pending: this.getSnapshot().holds.pending.filter((entry) => entry.method !== method) });
    }
  }

  /**
   * Resolves once an exchange `done` is on the wire. Fails when the client's code failed, and after
   * the step's limit: a client that never sends what the step waits for must not leave it waiting.
   */
  private waitForExchange(done: (exchange: HttpExchangeRecord) => boolean, what: string, step: 'initialized' | 'listen' | 'delete'): Promise<void> {
    const limitMs = this.deps.stepTimeoutMs ?? HTTP_STEP_TIMEOUT_MS;
    const failed = this.client?.failed;
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (error?: Error) => {
        clearTimeout(timer);
        unsubscribe();
        if (error) reject(error);
        else resolve();
      };
      const check = () => {
        const state = this.getSnapshot();
        if (state.exchanges.some(done)) finish();
        else if (state.status.status === 'failed' || state.status.status === 'idle') finish(new HttpWaitError('the session ended', { code: 'session-ended' }));
      };
      const unsubscribe = this.subscribe(check);
      timer = setTimeout(() => finish(new HttpWaitError(`nothing on the wire within ${limitMs / 1000} s: expected ${what}`, { code: 'wire-timeout', seconds: limitMs / 1000, step })), limitMs);
      failed?.catch((error: unknown) => finish(error instanceof Error ? error : new Error(String(error))));
      check();
    });
  }

  /** One tap event into the exchange it belongs to. */
  private record(event: TapEvent): void {
    this.events.push(event);
    if (!('conn' in event) || event.conn === undefined) return;
    const conn = event.conn;
    const exchanges = this.recorder.add(event.ev === 'c2s' || event.ev === 's2c' ? { conn, ev: event.ev, bytes: base64ToBytes(event.b64) } : { conn, ev: event.ev === 'open' ? 'open' : 'close' }, this.currentStep);
    const openStreams = exchanges.filter((entry) => !entry.closed && entry.contentType === 'text/event-stream').length;
    // The reference client tells its session id; the learner's is read off the initialize response on the wire.
    const sessionId = this.currentStep === 'delete' ? null : this.getSnapshot().client === 'learner' ? (exchanges.find((entry) => entry.request === 'POST initialize')?.sessionId ?? null) : (this.wire?.sessionId ?? null);
    this.update({ exchanges: [...exchanges], holds: { ...this.getSnapshot().holds, openStreams, sessionId: this.currentStep === 'delete' ? this.getSnapshot().holds.sessionId : (sessionId ?? this.getSnapshot().holds.sessionId) } });
  }

  /** The session so far as the trace format's HTTP recording wants it; null before any event. */
  recording(): { started: string; host: string; program: string[]; events: TapEvent[] } | null {
    if (this.started === null || this.events.length === 0) return null;
    return { started: this.started, host: this.getSnapshot().host ?? 'worker', program: [HTTP_PROGRAM.program], events: [...this.events] };
  }

  private updateHolds(holds: Partial<HttpHolds>): void {
    this.update({ holds: { ...this.getSnapshot().holds, ...holds } });
  }

  private update(patch: Partial<HttpSessionState>): void {
    this.store.setState((state) => ({ ...state, ...patch }));
  }
}

