// The live panel's Server features: one Streamable HTTP session against the feature demo
// (mcp-http --tools=features) on the live host, and one action per button, the way the MCP
// Inspector's tabs work — resources (list, read, subscribe, and the update notification that
// follows a change), prompts (get with arguments), logging (set the level, see which
// notifications/message still come), progress (a bar driven by notifications/progress) and
// sampling (the server asks the page's scripted model; the request waits at the approval gate,
// Approve sends the answer, Deny the spec's refusal, -1).
//
// Every action is one or more relayed TCP connections read from the wire's tap events, tagged
// with the tab that caused it, so each can open in the HTTP byte inspector. React-free.

import { McpClient, ServerRequestRefused } from '../../protocol/client.ts';
import { LOG_LEVELS, type LogLevel } from '../../protocol/features/types.ts';
import type { HostKind, ProgramSpec, Wire } from '../../runtime/host.ts';
import type { HttpWire } from '../../runtime/http-tap-wire.ts';
import { base64ToBytes, type TapEvent } from '../../runtime/tap-protocol.ts';
import type { GateDecision } from '../chapter-loop/agent-loop.ts';
import { readSamplingAsk, scriptedSamplingAnswer, type CreateMessageResult, type SamplingAsk } from '../chapter-loop/scripted-sampling.ts';
import { HttpExchangeRecorder, type HttpExchangeRecord } from '../protocol/http-exchanges.ts';
import { createStore, ExternalStore, type Store } from '../store/create-store.ts';

export const FEATURE_TABS = ['resources', 'prompts', 'logging', 'progress', 'sampling'] as const;
export type FeatureTab = (typeof FEATURE_TABS)[number];
/** What caused a connection: a tab's action, or the session itself (initialize, initialized, the GET stream). */
export type ExchangeTag = FeatureTab | 'session';
export type FeatureExchange = HttpExchangeRecord<ExchangeTag>;

export const FEATURES_PROGRAM: ProgramSpec = { program: 'mcp-http', framing: 'ndjson', faults: [], tools: 'features' };
export const PROGRESS_TOKEN = 'features-progress';
/** The spec's error for a user who rejects a sampling request (2025-11-25, client/sampling). */
export const SAMPLING_REJECTED = { code: -1, message: 'User rejected sampling request' } as const;
export { LOG_LEVELS, type LogLevel };
/** Tap events kept for "Save as trace": a long session keeps its first ones (the trace says so by ending early). */
export const MAX_RECORDED_EVENTS = 20_000;

export interface ResourceRow {
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
}
export interface PromptRow {
  name: string;
  description?: string;
  arguments: { name: string; description?: string; required?: boolean }[];
}
export interface LogRow {
  /** Which log_levels run it came in (1, 2, …). */
  run: number;
  level: string;
  data: string;
}
export interface SamplingRow {
  ask: SamplingAsk;
  decision: Extract<GateDecision, 'approved' | 'denied'>;
  /** What went back to the server: the answer's text, or the refusal. */
  sent: string;
}

export type FeaturesStatus = { status: 'idle' } | { status: 'connecting' } | { status: 'ready' } | { status: 'failed'; reason: string };

export interface FeaturesState {
  status: FeaturesStatus;
  host: HostKind | null;
  /** The Mcp-Session-Id the server gave in its initialize response. */
  sessionId: string | null;
  /** The action in flight (one at a time), by the tab that started it. */
  busy: FeatureTab | null;
  /** The last action's failure, shown in its tab. */
  error: { tab: FeatureTab; text: string } | null;
  exchanges: FeatureExchange[];
  resources: {
    list: ResourceRow[];
    read: { uri: string; text: string } | null;
    subscribed: string[];
    /** notifications/resources/updated as they arrived. */
    updates: string[];
    /** The increment tool's answer. */
    changed: string | null;
  };
  prompts: { list: PromptRow[]; result: { name: string; messages: { role: string; text: string }[] } | null };
  /** `level`: what the client set (null: the server's default, everything). */
  logging: { level: LogLevel | null; runs: number; messages: LogRow[] };
  progress: { progress: number; total: number | null; message: string | null } | null;
  progressResult: string | null;
  sampling: {
    /** A request waiting at the gate, with the answer the scripted model would send. */
    pending: { ask: SamplingAsk; answer: CreateMessageResult } | null;
    decisions: SamplingRow[];
    /** ask_model's result as the server put it (an isError result after a refusal). */
    result: { text: string; isError: boolean } | null;
  };
}

export interface FeaturesDeps {
  /** Start a program on the live host (mcp-http with the features tool set). */
  startProgram(spec: ProgramSpec): Promise<Wire>;
  /** The learner's language, for the scripted model's answer. */
  language(): string;
}

const INITIAL: FeaturesState = {
  status: { status: 'idle' },
  host: null,
  sessionId: null,
  busy: null,
  error: null,
  exchanges: [],
  resources: { list: [], read: null, subscribed: [], updates: [], changed: null },
  prompts: { list: [], result: null },
  logging: { level: null, runs: 0, messages: [] },
  progress: null,
  progressResult: null,
  sampling: { pending: null, decisions: [], result: null },
};

type ToolResult = { content?: { type?: string; text?: string }[]; isError?: boolean };

export class FeaturesStore extends ExternalStore<FeaturesState> {
  protected readonly store: Store<FeaturesState> = createStore<FeaturesState>(INITIAL);
  private wire: HttpWire | null = null;
  private client: McpClient | null = null;
  private run = 0;
  private tag: ExchangeTag = 'session';
  private recorder = new HttpExchangeRecorder<ExchangeTag>();
  private decide: ((yes: boolean) => void) | null = null;
  /** The session's tap events exactly as they arrived, for "Save as trace". */
  private events: TapEvent[] = [];
  private started: string | null = null;

  constructor(private readonly deps: FeaturesDeps) {
    super();
  }

  // ---- the session ----

  /** Start the feature demo on the live host and run the handshake. */
  async connect(): Promise<void> {
    const { status } = this.getSnapshot().status;
    if (status === 'connecting' || status === 'ready') return;
    this.reset();
    const run = this.run;
    this.update({ status: { status: 'connecting' } });
    try {
      const wire = (await this.deps.startProgram(FEATURES_PROGRAM)) as HttpWire;
      if (run !== this.run) return wire.kill();
      this.wire = wire;
      this.started = new Date().toISOString();
      this.update({ host: wire.host });
      wire.onTapEvent((event) => run === this.run && this.record(event));
      wire.onClose((reason) => run === this.run && this.fail(`the server stopped: ${reason}`));
      const client = new McpClient(wire, {
        framing: 'ndjson',
        requestTimeoutMs: 30_000,
        // Declared, so the server may ask (it MUST NOT otherwise); answered only through the gate.
        capabilities: { sampling: {} },
        serverRequests: { 'sampling/createMessage': (params) => this.gate(run, params) },
      });
      client.on((event) => {
        if (run === this.run && event.type === 'notification') this.notification(event.message.method, event.message.params);
      });
      this.client = client;
      await client.connect();
      // The client opens the standalone GET stream by itself after initialized; wait for the
      // server's answer, so the stream (where resource updates come) belongs to the session.
      await this.until(() => this.getSnapshot().exchanges.some((exchange) => exchange.request === 'GET' && exchange.status !== null));
      if (run === this.run) this.update({ status: { status: 'ready' }, sessionId: wire.sessionId ?? null });
    } catch (error) {
      if (run === this.run) this.fail(messageOf(error));
    }
  }

  /** End the session (DELETE) and stop the server; the panel starts over. */
  disconnect(): void {
    const wire = this.wire;
    this.reset();
    wire?.end();
  }

  dispose(): void {
    const wire = this.wire;
    this.reset();
    wire?.kill();
  }

  // ---- resources ----

  listResources(): Promise<void> {
    return this.act('resources', async (client) => {
      const result = (await client.sendRequest('resources/list')) as { resources?: ResourceRow[] };
      this.updateResources({ list: result.resources ?? [] });
    });
  }

  readResource(uri: string): Promise<void> {
    return this.act('resources', async (client) => {
      const result = (await client.sendRequest('resources/read', { uri })) as { contents?: { text?: string; blob?: string }[] };
      this.updateResources({ read: { uri, text: (result.contents ?? []).map((content) => content.text ?? `(${content.blob?.length ?? 0} base64 characters)`).join('\n') } });
    });
  }

  /** resources/subscribe, or resources/unsubscribe when already subscribed. */
  toggleSubscription(uri: string): Promise<void> {
    return this.act('resources', async (client) => {
      const subscribed = this.getSnapshot().resources.subscribed.includes(uri);
      await client.sendRequest(subscribed ? 'resources/unsubscribe' : 'resources/subscribe', { uri });
      const rest = this.getSnapshot().resources.subscribed.filter((entry) => entry !== uri);
      this.updateResources({ subscribed: subscribed ? rest : [...rest, uri] });
    });
  }

  /** The increment tool: the counter resource changes, and its subscribers hear about it. */
  changeCounter(): Promise<void> {
    return this.act('resources', async () => {
      const result = await this.callTool('increment', {});
      this.updateResources({ changed: textOf(result) });
    });
  }

  // ---- prompts ----

  listPrompts(): Promise<void> {
    return this.act('prompts', async (client) => {
      const result = (await client.sendRequest('prompts/list')) as { prompts?: PromptRow[] };
      this.update({ prompts: { ...this.getSnapshot().prompts, list: (result.prompts ?? []).map((prompt) => ({ ...prompt, arguments: prompt.arguments ?? [] })) } });
    });
  }

  /** prompts/get; empty arguments are left out, so a missing required one is the server's to refuse. */
  getPrompt(name: string, args: Record<string, string>): Promise<void> {
    return this.act('prompts', async (client) => {
      const given = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== ''));
      const result = (await client.sendRequest('prompts/get', { name, arguments: given })) as { messages?: { role: string; content?: { type?: string; text?: string } }[] };
      const messages = (result.messages ?? []).map((message) => ({ role: message.role, text: message.content?.text ?? JSON.stringify(message.content) }));
      this.update({ prompts: { ...this.getSnapshot().prompts, result: { name, messages } } });
    });
  }

  // ---- logging ----

  setLogLevel(level: LogLevel): Promise<void> {
    return this.act('logging', async (client) => {
      await client.sendRequest('logging/setLevel', { level });
      this.update({ logging: { ...this.getSnapshot().logging, level } });
    });
  }

  /** The log_levels tool: one message at each of five levels; the server drops those below the level. */
  runLogTool(): Promise<void> {
    return this.act('logging', async () => {
      this.update({ logging: { ...this.getSnapshot().logging, runs: this.getSnapshot().logging.runs + 1 } });
      await this.callTool('log_levels', {});
    });
  }

  // ---- progress ----

  runSlowTask(steps = 5): Promise<void> {
    return this.act('progress', async () => {
      this.update({ progress: { progress: 0, total: steps, message: null }, progressResult: null });
      const result = await this.callTool('slow_count', { steps }, { progressToken: PROGRESS_TOKEN });
      this.update({ progressResult: textOf(result) });
    });
  }

  // ---- sampling ----

  /** The ask_model tool: the server sends sampling/createMessage back, which waits at the gate. */
  askModel(question: string): Promise<void> {
    return this.act('sampling', async () => {
      this.update({ sampling: { ...this.getSnapshot().sampling, result: null } });
      const result = await this.callTool('ask_model', { question });
      this.update({ sampling: { ...this.getSnapshot().sampling, result: { text: textOf(result), isError: result.isError === true } } });
    });
  }

  approveSampling(): void {
    this.decide?.(true);
  }

  denySampling(): void {
    this.decide?.(false);
  }

  /** The session so far as the trace format's HTTP recording wants it (the trace view opens it); null before any event. */
  recording(): { started: string; host: string; program: string[]; events: TapEvent[] } | null {
    if (this.started === null || this.events.length === 0) return null;
    return { started: this.started, host: this.getSnapshot().host ?? 'worker', program: ['mcp-http', '--tools=features'], events: [...this.events] };
  }

  /** The connections of one tab (or of the session itself), in the order they opened. */
  exchangesOf(tag: ExchangeTag): FeatureExchange[] {
    return this.getSnapshot().exchanges.filter((exchange) => exchange.step === tag);
  }

  // ---- inside ----

  /** The approval gate, as in the chapter loop: nothing reaches the server until a person decides. */
  private gate(run: number, params: unknown): Promise<CreateMessageResult> {
    const ask = readSamplingAsk(params);
    const answer = scriptedSamplingAnswer(ask, this.deps.language());
    return new Promise<CreateMessageResult>((resolve, reject) => {
      if (run !== this.run) return reject(new ServerRequestRefused(SAMPLING_REJECTED.code, SAMPLING_REJECTED.message));
      // One request at a time reaches the person; a second one waits for the first to be decided.
      const previous = this.decide;
      this.decide = (yes) => {
        this.decide = previous;
        const sampling = this.getSnapshot().sampling;
        const row: SamplingRow = { ask, decision: yes ? 'approved' : 'denied', sent: yes ? answer.content.text : `${SAMPLING_REJECTED.code} ${SAMPLING_REJECTED.message}` };
        this.update({ sampling: { ...sampling, pending: null, decisions: [...sampling.decisions, row] } });
        if (yes) resolve(answer);
        else reject(new ServerRequestRefused(SAMPLING_REJECTED.code, SAMPLING_REJECTED.message));
      };
      this.update({ sampling: { ...this.getSnapshot().sampling, pending: { ask, answer } } });
    });
  }

  /** One action of a tab: one at a time, its connections tagged with the tab, its failure shown there. */
  private async act(tab: FeatureTab, body: (client: McpClient) => Promise<void>): Promise<void> {
    const client = this.client;
    const state = this.getSnapshot();
    if (client === null || state.status.status !== 'ready' || state.busy !== null) return;
    const run = this.run;
    this.tag = tab;
    this.update({ busy: tab, error: null });
    try {
      await body(client);
    } catch (error) {
      if (run === this.run) this.update({ error: { tab, text: messageOf(error) } });
    } finally {
      if (run === this.run) {
        this.tag = 'session';
        this.update({ busy: null });
      }
    }
  }

  /** Resolves once `done()` holds, or rejects when the session failed or started over meanwhile. */
  private until(done: () => boolean): Promise<void> {
    const run = this.run;
    return new Promise((resolve, reject) => {
      const check = () => {
        if (done()) {
          unsubscribe();
          resolve();
        } else if (run !== this.run || this.getSnapshot().status.status === 'failed') {
          unsubscribe();
          reject(new Error('the session ended'));
        }
      };
      const unsubscribe = this.subscribe(check);
      check();
    });
  }

  private async callTool(name: string, args: Record<string, unknown>, meta?: Record<string, unknown>): Promise<ToolResult> {
    return (await this.client!.sendRequest('tools/call', { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) })) as ToolResult;
  }

  private notification(method: string, params: unknown): void {
    const record = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
    const state = this.getSnapshot();
    if (method === 'notifications/resources/updated' && typeof record.uri === 'string') {
      this.updateResources({ updates: [...state.resources.updates, record.uri] });
    } else if (method === 'notifications/message') {
      const row: LogRow = { run: state.logging.runs, level: String(record.level), data: typeof record.data === 'string' ? record.data : JSON.stringify(record.data) };
      this.update({ logging: { ...state.logging, messages: [...state.logging.messages, row] } });
    } else if (method === 'notifications/progress' && record.progressToken === PROGRESS_TOKEN && typeof record.progress === 'number') {
      this.update({ progress: { progress: record.progress, total: typeof record.total === 'number' ? record.total : null, message: typeof record.message === 'string' ? record.message : null } });
    }
  }

  /** One tap event into the exchange of its connection, tagged with the action that opened it. */
  private record(event: TapEvent): void {
    if (this.events.length < MAX_RECORDED_EVENTS) this.events.push(event);
    if (!('conn' in event) || event.conn === undefined) return;
    const conn = event.conn;
    const exchanges = this.recorder.add(event.ev === 'c2s' || event.ev === 's2c' ? { conn, ev: event.ev, bytes: base64ToBytes(event.b64) } : { conn, ev: event.ev === 'open' ? 'open' : 'close' }, this.tag);
    this.update({ exchanges: [...exchanges] });
  }

  private fail(reason: string): void {
    this.decide?.(false);
    this.decide = null;
    this.client = null;
    this.wire = null;
    this.update({ status: { status: 'failed', reason }, busy: null });
  }

  private reset(): void {
    this.run++;
    // A request still at the gate is refused: nobody is there to decide any more.
    this.decide?.(false);
    this.decide = null;
    this.wire = null;
    this.client = null;
    this.tag = 'session';
    this.recorder = new HttpExchangeRecorder<ExchangeTag>();
    this.events = [];
    this.started = null;
    this.store.setState(INITIAL);
  }

  private updateResources(patch: Partial<FeaturesState['resources']>): void {
    this.update({ resources: { ...this.getSnapshot().resources, ...patch } });
  }

  private update(patch: Partial<FeaturesState>): void {
    this.store.setState((state) => ({ ...state, ...patch }));
  }
}

function textOf(result: ToolResult): string {
  return (result.content ?? []).map((block) => block.text ?? '').join('\n');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
