// A second correct solution of exercise 7, in another style than the reference: tables instead of
// switches, one loop that handles -32022 and MRTR rounds alike, and no helpers from era/meta.ts
// beyond the key names (it reads -32022's data and resultType itself).

import type { Implementation } from '@protocol/mcp';
import { ClientClosedError, McpRpcError, ProtocolViolationError, RequestTimeoutError } from '@protocol/client-errors';
import { InputRequiredError } from '@protocol/era/era-errors';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, type RequestEnvelope } from '@protocol/era/meta';
import { readDiscoverResult, type ProbeContext, type ProbeOutcome, type ProbeTransportKind, type ProbeVerdict } from '@protocol/era/probe';
import type { RpcChannel } from '@protocol/era/rpc-channel';

export type InputHandler = (params: Record<string, unknown>) => unknown;
export type InputHandlers = Partial<Record<'elicitation/create' | 'sampling/createMessage' | 'roots/list', InputHandler>>;

const CAPABILITY_OF: Record<string, string> = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };
const MAY_ASK_FOR_INPUT = new Set(['tools/call', 'resources/read', 'prompts/get']);
const FIRST_MODERN = '2026-07-28';
/** The versions of the handshake era the exercise-3 client can fall back to. */
const HANDSHAKE_ERA = new Set(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']);

const record = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isModern = (version: string) => /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= FIRST_MODERN;
const firstShared = (ours: readonly string[], theirs: readonly string[]) => ours.filter((version) => theirs.includes(version))[0];

export function capabilitiesFor(handlers: InputHandlers): Record<string, Record<string, never>> {
  return Object.fromEntries(
    Object.entries(handlers)
      .filter(([, handler]) => typeof handler === 'function')
      .map(([method]) => [CAPABILITY_OF[method] as string, {} as Record<string, never>]),
  );
}

export interface RetryFields {
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

export async function answerInputRequests(method: string, result: Record<string, unknown>, handlers: InputHandlers): Promise<RetryFields> {
  const out: RetryFields = {};
  if ('inputRequests' in result && result.inputRequests !== undefined) {
    if (!record(result.inputRequests)) throw new InputRequiredError(method, 'inputRequests must be an object', result);
    const entries = Object.entries(result.inputRequests);
    const answers = await Promise.all(
      entries.map(async ([key, asked]) => {
        const kind = record(asked) ? asked.method : undefined;
        const handler = typeof kind === 'string' && Object.hasOwn(CAPABILITY_OF, kind) ? handlers[kind as keyof InputHandlers] : undefined;
        if (!handler) throw new InputRequiredError(method, `cannot answer "${key}"`, result);
        return [key, await handler(record(asked) && record(asked.params) ? asked.params : {})] as const;
      }),
    );
    out.inputResponses = Object.fromEntries(answers);
  }
  if (typeof result.requestState === 'string') out.requestState = result.requestState;
  return out;
}

function supportedListOf(data: unknown): string[] | undefined {
  if (!record(data) || !Array.isArray(data.supported)) return undefined;
  return data.supported.every((item) => typeof item === 'string') ? (data.supported as string[]) : undefined;
}

export function classifyProbe(outcome: ProbeOutcome, context: ProbeContext): ProbeVerdict {
  const legacy = (reason: string): ProbeVerdict => ({ kind: 'legacy', reason });
  const fail = (reason: string): ProbeVerdict => ({ kind: 'fail', reason });
  if (outcome.kind === 'timeout') return context.transport === 'http' ? fail('HTTP server silent') : legacy('silent stdio server');
  if (outcome.kind === 'closed') return fail(outcome.reason);
  if (outcome.kind === 'result') {
    const discover = readDiscoverResult(outcome.result);
    const version = discover && firstShared(context.ours, discover.supportedVersions);
    if (!discover) return legacy('not a DiscoverResult');
    if (version) return { kind: 'modern', version, discover };
    // A DiscoverResult comes from a modern server: fall back only to a handshake version it lists.
    return discover.supportedVersions.some((listed) => HANDSHAKE_ERA.has(listed)) ? legacy('it lists the handshake too') : fail('no version in common');
  }
  if (outcome.code === -32020 || outcome.code === -32021) return fail(`refused with ${outcome.code}`);
  if (outcome.code !== -32022) return legacy(`error ${outcome.code}`);
  const supported = supportedListOf(outcome.data);
  if (!supported) return legacy('-32022 without supported versions');
  const shared = firstShared(context.ours, supported);
  if (shared) return { kind: 'retry', version: shared };
  return supported.some(isModern) ? fail('no modern version in common') : legacy('handshake-era versions only');
}

export interface ModernSessionOptions {
  version: string;
  versions: readonly string[];
  clientInfo: Implementation;
  inputHandlers: InputHandlers;
  requestTimeoutMs: number;
  maxInputRounds?: number;
  onVersionChange?: (version: string) => void;
}

export interface DiscoverOptions {
  transport: ProbeTransportKind;
  timeoutMs: number;
  versions?: readonly string[];
  onProbe?: (version: string, outcome: ProbeOutcome, verdict: ProbeVerdict) => void;
}

export type DiscoverVerdict = Exclude<ProbeVerdict, { kind: 'retry' }>;

export class ModernSession {
  #version: string;
  #serverInfo: Implementation | undefined;

  constructor(
    private readonly channel: RpcChannel,
    private readonly options: ModernSessionOptions,
  ) {
    this.#version = options.version;
  }

  get version(): string {
    return this.#version;
  }

  get serverInfo(): Implementation | undefined {
    return this.#serverInfo;
  }

  envelope(): RequestEnvelope {
    return { protocolVersion: this.#version, clientCapabilities: capabilitiesFor(this.options.inputHandlers), clientInfo: this.options.clientInfo };
  }

  #meta(version: string): Record<string, unknown> {
    return { [META_PROTOCOL_VERSION]: version, [META_CLIENT_CAPABILITIES]: capabilitiesFor(this.options.inputHandlers), [META_CLIENT_INFO]: this.options.clientInfo };
  }

  #noteServerInfo(raw: unknown): void {
    const info = record(raw) && record(raw._meta) ? raw._meta['io.modelcontextprotocol/serverInfo'] : undefined;
    if (record(info) && typeof info.name === 'string' && typeof info.version === 'string') this.#serverInfo = { name: info.name, version: info.version };
  }

  async discover(options: DiscoverOptions): Promise<DiscoverVerdict> {
    const ours = options.versions ?? this.options.versions;
    let version = ours[0] as string;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.channel.request('server/discover', { _meta: this.#meta(version) }, options.timeoutMs).then(
        (result): ProbeOutcome => {
          this.#noteServerInfo(result);
          return { kind: 'result', result };
        },
        (error: unknown): ProbeOutcome => {
          if (error instanceof McpRpcError) return { kind: 'error', code: error.code, message: error.rpcMessage, data: error.data };
          if (error instanceof RequestTimeoutError) return { kind: 'timeout' };
          if (error instanceof ClientClosedError) return { kind: 'closed', reason: error.reason };
          throw error;
        },
      );
      const verdict = classifyProbe(outcome, { ours, transport: options.transport });
      options.onProbe?.(version, outcome, verdict);
      if (verdict.kind !== 'retry') {
        if (verdict.kind === 'modern') this.#version = verdict.version;
        return verdict;
      }
      if (attempt === 2) return { kind: 'fail', reason: 'two -32022 answers' };
      version = verdict.version;
    }
  }

  async request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
    const limit = this.options.maxInputRounds ?? 8;
    let extra: RetryFields = {};
    let results = 0;
    let versionRetried = false;
    for (;;) {
      const base: Record<string, unknown> = { ...(params ?? {}), ...extra };
      const callerMeta = record(base._meta) ? base._meta : {};
      let raw: unknown;
      try {
        raw = await this.channel.request(method, { ...base, _meta: { ...callerMeta, ...this.#meta(this.#version) } }, this.options.requestTimeoutMs);
      } catch (error) {
        const supported = error instanceof McpRpcError && error.code === -32022 ? supportedListOf(error.data) : undefined;
        const next = supported && !versionRetried ? firstShared(this.options.versions, supported) : undefined;
        if (next === undefined) throw error;
        versionRetried = true;
        this.#version = next;
        this.options.onVersionChange?.(next);
        continue;
      }
      versionRetried = false;
      if (!record(raw)) throw new ProtocolViolationError(method, 'a result must be an object');
      this.#noteServerInfo(raw);
      const type = raw.resultType === undefined ? 'complete' : String(raw.resultType);
      if (type === 'complete') return raw;
      if (type !== 'input_required' || !MAY_ASK_FOR_INPUT.has(method)) throw new ProtocolViolationError(method, `resultType ${type} is not allowed here`);
      results++;
      if (results >= limit) throw new InputRequiredError(method, `gave up after ${limit} rounds`, raw);
      extra = await answerInputRequests(method, raw, this.options.inputHandlers);
    }
  }
}
