// Inside the worker: load the learner's TypeScript with the exercise engine's transpiler and module
// loader (the same sandboxing the spec runner uses: hidden network and storage APIs, timers that
// are cancelled with the session) and call into it on the page's behalf. Apart from the Worker
// itself, so Node tests can drive it.

import { createModuleLoader, type ModuleLoader, type SourceModule } from './module-loader.ts';
import type { ProtocolModules } from './protocol-modules.ts';
import { sourceUrlFor } from './source-location.ts';
import { createTimerScope, type TimerScope } from './timer-scope.ts';
import { transpile } from './transpile.ts';
import type { FrameReader } from '../protocol/framing/types.ts';
import type { ToolRegistry } from '../protocol/registry.ts';
import type { ByteTransport } from '../protocol/transport.ts';
import { replayChunks } from '../protocol/inspect/chunk-replay.ts';
import { errorInfo, type CallOutcome, type DriverEvent, type DriverOp, type ErrorInfo } from './client-driver.ts';
import { LEARNER_HEARTBEAT_MS, type LearnerEraConfig, type LearnerSource, type LearnerToPage, type PageToLearner } from './learner-worker-messages.ts';
import type { ModernSessionClass } from '../protocol/era/dual-era-client.ts';
import { CHAPTER_TOOL_NAMES, createLocalRegistry, registryView } from './local-tools.ts';
import { toolRows } from './tool-table.ts';
import type { AgentRpcCall } from './learner-worker-messages.ts';
import { hiddenGlobals } from './hidden-globals.ts';
import { proxiedExchange, type ProxiedExchange } from './learner-http-exchange.ts';


export interface LearnerWorkerCoreDeps {
  post(message: LearnerToPage): void;
  protocolModules: ProtocolModules;
  heartbeatMs?: number;
}

export interface LearnerWorkerCore {
  handle(data: unknown): void;
  /** An error the learner's code left uncaught (the worker's error events). */
  reportUncaught(error: unknown): void;
  /** Stop the heartbeat and the learner's timers (Node tests; a real worker is terminated instead). */
  dispose(): void;
}

interface Loaded {
  exports: Record<string, unknown>;
  lineOf(error: unknown): number | null;
}

export function createLearnerWorkerCore(deps: LearnerWorkerCoreDeps): LearnerWorkerCore {
  // Captured before any learner code runs here.
  const realSetTimeout = globalThis.setTimeout;
  const realSetInterval = globalThis.setInterval;
  const dataListeners = new Set<(bytes: Uint8Array) => void>();
  const closeListeners = new Set<(reason: string) => void>();
  let client: Record<string, unknown> | null = null;
  let current: Loaded | null = null;
  let timers: TimerScope | null = null;
  // The Chapter loop's registry, once the learner's registerMcpTools has filled it.
  let agentRegistry: ToolRegistry | null = null;
  const agentRpcs = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextRpcId = 1;
  // Exercise 6: the learner's transport's way to the server, through the page.
  let http: ProxiedExchange | null = null;

  const post = (message: LearnerToPage) => {
    try {
      deps.post(message);
    } catch {
      // A value structured clone refuses (a function in a result): send it as JSON instead.
      deps.post(JSON.parse(JSON.stringify(message)) as LearnerToPage);
    }
  };
  const fail = (error: unknown): ErrorInfo => errorInfo(error, current?.lineOf(error) ?? null);

  function load(source: LearnerSource): Loaded | ErrorInfo {
    // Transpiling blocks this thread and runs no learner code: on a slow machine it may be
    // silent for longer than the 2 s rule, so the page is told to wait (learner-worker-client.ts).
    post({ type: 'preparing' });
    const compiled = transpile(source.code, source.file);
    post({ type: 'prepared' });
    if (!compiled.ok) return { name: 'SyntaxError', message: `${source.file}: ${compiled.error.message}`, line: compiled.error.line ?? null, code: null };
    timers?.dispose();
    timers = createTimerScope((error) => post({ type: 'client-event', event: { type: 'uncaught', error: fail(error) } }));
    const learner: SourceModule = { code: compiled.code, url: sourceUrlFor(`learner/${source.file}`), displayName: source.file, guardExports: true };
    if (source.moduleId) learner.location = source.moduleId;
    const hidden = hiddenGlobals();
    const loader: ModuleLoader = createModuleLoader({ sources: { '@learner': learner }, protocolModules: deps.protocolModules, shadowedGlobals: { ...hidden, ...timers.timers } });
    const lineOf = (error: unknown) => (error instanceof Error ? (loader.lineIn(error.stack, learner) ?? null) : null);
    try {
      return { exports: loader.require('@learner') as Record<string, unknown>, lineOf };
    } catch (error) {
      return errorInfo(error, lineOf(error));
    }
  }

  /** The module's export `name`; the loader's guarded view throws a helpful TypeError when it is missing. */
  function exportOf(loaded: Loaded, name: string): unknown {
    return loaded.exports[name];
  }

  const transport: ByteTransport = {
    write: (bytes) => post({ type: 'transport-write', bytes: Uint8Array.from(bytes) }),
    end: () => post({ type: 'transport-end' }),
    onData(listener) {
      dataListeners.add(listener);
      return () => dataListeners.delete(listener);
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
  };

  function startClient(message: Extract<PageToLearner, { type: 'client-start' }>): void {
    const loaded = load(message.source);
    if (!('exports' in loaded)) return post({ type: 'client-started', outcome: { ok: false, error: loaded } });
    current = loaded;
    if (message.era) return startEraClient(message, loaded, message.era);
    try {
      const McpClient = exportOf(loaded, 'McpClient');
      if (typeof McpClient !== 'function') throw new TypeError(`${message.source.file} must export a class McpClient`);
      const instance = new (McpClient as new (transport: ByteTransport, options: unknown) => Record<string, unknown>)(transport, { framing: message.framing, requestTimeoutMs: message.requestTimeoutMs });
      client = instance;
      if (typeof instance.on === 'function') (instance.on as (listener: (event: unknown) => void) => unknown).call(instance, (event) => forwardEvent(event));
      post({ type: 'client-started', outcome: { ok: true, value: null } });
    } catch (error) {
      post({ type: 'client-started', outcome: { ok: false, error: fail(error) } });
    }
  }

  /**
   * Exercise 7: the learner's ModernSession inside the project's own DualEraClient (the same object
   * the reference run uses, from the protocol modules), driven with the era stepper's ops the way
   * src/app/protocol/era-driver.ts drives the reference: initialize is connect() (the probe, and a
   * fallback handshake on a legacy answer); notifyInitialized is nothing (connect() sent it).
   */
  function startEraClient(message: Extract<PageToLearner, { type: 'client-start' }>, loaded: Loaded, era: LearnerEraConfig): void {
    try {
      const ModernSession = exportOf(loaded, 'ModernSession');
      if (typeof ModernSession !== 'function') throw new TypeError(`${message.source.file} must export a class ModernSession`);
      const { DualEraClient } = deps.protocolModules['@protocol/era/dual-era-client'] as typeof import('../protocol/era/dual-era-client.ts');
      const era0 = era.versions?.[0] ?? '2026-07-28';
      const dual = new DualEraClient(
        { kind: 'stdio', transport, framing: message.framing },
        {
          era: era.mode === 'modern' ? { pin: era0 } : 'auto',
          requestTimeoutMs: message.requestTimeoutMs,
          // The stepper holds answers until the learner steps: silence on stdio must not read as a legacy server.
          probeTimeoutMs: message.requestTimeoutMs,
          sessionClass: ModernSession as ModernSessionClass,
          ...(era.versions ? { modernVersions: era.versions } : {}),
        },
      );
      dual.on((event) => forwardEvent(event));
      client = {
        initialize: () => dual.connect(),
        notifyInitialized: () => null,
        listTools: () => dual.listTools(),
        callTool: (name: string, args?: Record<string, unknown>) => dual.callTool(name, args),
        close: () => dual.close(),
      };
      post({ type: 'client-started', outcome: { ok: true, value: null } });
    } catch (error) {
      post({ type: 'client-started', outcome: { ok: false, error: fail(error) } });
    }
  }

  /**
   * Exercise 6: the learner's HttpClientTransport (their SseReader inside it) under the project's
   * McpClient, which writes NDJSON lines to it as HTTP_CLIENT_FRAMING says. The transport's
   * exchange is proxied to the page (learner-http-exchange.ts); callTool with `meta` is tools/call
   * with that `_meta` (the HTTP stepper's progress token); close() is the transport's end() (DELETE).
   */
  function startHttpClient(message: Extract<PageToLearner, { type: 'http-client-start' }>): void {
    const loaded = load(message.source);
    if (!('exports' in loaded)) return post({ type: 'client-started', outcome: { ok: false, error: loaded } });
    current = loaded;
    http?.close('a new session started');
    const proxy = proxiedExchange(post);
    http = proxy;
    try {
      const Transport = exportOf(loaded, 'HttpClientTransport');
      if (typeof Transport !== 'function') throw new TypeError(`${message.source.file} must export a class HttpClientTransport`);
      const framing = exportOf(loaded, 'HTTP_CLIENT_FRAMING');
      if (framing !== 'ndjson' && framing !== 'content-length') throw new TypeError(`${message.source.file} must export HTTP_CLIENT_FRAMING, the framing McpClient writes to the transport ('ndjson')`);
      const transport = new (Transport as new (options: unknown) => ByteTransport)({ url: message.url, exchange: proxy.exchange });
      const { McpClient } = deps.protocolModules['@protocol/client'] as typeof import('../protocol/client.ts');
      const mcp = new McpClient(transport, { framing, requestTimeoutMs: message.requestTimeoutMs });
      mcp.on((event) => forwardEvent(event));
      client = {
        initialize: () => mcp.initialize(),
        notifyInitialized: () => mcp.notifyInitialized(),
        listTools: () => mcp.listTools(),
        callTool: (name: string, args?: Record<string, unknown>, meta?: Record<string, unknown>) =>
          meta === undefined ? mcp.callTool(name, args) : mcp.sendRequest('tools/call', { name, arguments: args ?? {}, _meta: meta }),
        close: () => mcp.close(),
      };
      post({ type: 'client-started', outcome: { ok: true, value: null } });
    } catch (error) {
      post({ type: 'client-started', outcome: { ok: false, error: fail(error) } });
    }
  }

  function forwardEvent(raw: unknown): void {
    const event = toDriverEvent(raw);
    if (event) post({ type: 'client-event', event });
  }

  async function call(callId: number, op: DriverOp): Promise<void> {
    try {
      if (client === null) throw new Error('the client was not created');
      const method = client[op.op];
      if (typeof method !== 'function') throw new TypeError(`McpClient has no method ${op.op}()`);
      const args = op.op === 'callTool' ? (op.meta === undefined ? [op.name, op.args] : [op.name, op.args, op.meta]) : [];
      const value: unknown = await (method as (...args: unknown[]) => unknown).apply(client, args);
      post({ type: 'client-settled', callId, outcome: { ok: true, value: jsonSafe(value) } });
    } catch (error) {
      post({ type: 'client-settled', callId, outcome: { ok: false, error: fail(error) } });
    }
  }

  function deliver<T>(listeners: Set<(value: T) => void>, value: T): void {
    for (const listener of [...listeners]) {
      try {
        listener(value);
      } catch (error) {
        post({ type: 'client-event', event: { type: 'uncaught', error: fail(error) } });
      }
    }
  }

  function runReader(message: Extract<PageToLearner, { type: 'reader-run' }>): void {
    const loaded = load(message.source);
    if (!('exports' in loaded)) return post({ type: 'reader-result', jobId: message.jobId, steps: null, error: loaded });
    current = loaded;
    const name = message.framing === 'ndjson' ? 'LineReader' : 'FrameReader';
    const steps = replayChunks(() => {
      const Reader = exportOf(loaded, name);
      if (typeof Reader !== 'function') throw new TypeError(`${message.source.file} must export a class ${name}`);
      return new (Reader as new () => FrameReader)();
    }, message.chunks);
    post({ type: 'reader-result', jobId: message.jobId, steps, error: null });
  }

  async function runRegister(message: Extract<PageToLearner, { type: 'register-run' }>): Promise<void> {
    const registryModule = deps.protocolModules['@protocol/registry'] as { ToolRegistry: new () => ToolRegistry };
    const registry = createLocalRegistry(registryModule);
    const source = {
      listTools: async () => message.tools,
      callTool: async () => {
        throw new Error('not called in this scenario');
      },
    };
    const outcome = await runLearnerRegister(message.source, registry, source, () => ({ prefix: message.prefix, server: 'echo' }));
    post({ type: 'register-result', jobId: message.jobId, outcome: { ...outcome, registry: registryView(registry) } });
  }

  /**
   * Load the learner's file and call its registerMcpTools(registry, client, options): what the
   * failure lab and the Chapter loop both do, with a different client and registry.
   */
  async function runLearnerRegister(
    learnerFile: LearnerSource,
    registry: ToolRegistry,
    client: unknown,
    options: (loaded: Loaded) => Record<string, unknown>,
  ): Promise<{ ok: boolean; count: number | null; error: ErrorInfo | null }> {
    const loaded = load(learnerFile);
    if (!('exports' in loaded)) return { ok: false, count: null, error: loaded };
    current = loaded;
    try {
      const register = exportOf(loaded, 'registerMcpTools');
      if (typeof register !== 'function') throw new TypeError(`${learnerFile.file} must export a function registerMcpTools`);
      const count: unknown = await (register as (...args: unknown[]) => unknown)(registry, client, options(loaded));
      return { ok: true, count: typeof count === 'number' ? count : null, error: null };
    } catch (error) {
      return { ok: false, count: null, error: fail(error) };
    }
  }

  /** The learner's exercise 8 file, loaded once per source for the sign-in scene's calls. */
  let authFile: { code: string; loaded: Loaded } | null = null;

  /** One of exercise 8's pure steps, as the flow on the page asks for it. */
  async function authCall(message: Extract<PageToLearner, { type: 'auth-call' }>): Promise<void> {
    const settle = (outcome: CallOutcome) => post({ type: 'auth-result', callId: message.callId, outcome });
    if (authFile === null || authFile.code !== message.source.code) {
      const loaded = load(message.source);
      if (!('exports' in loaded)) return settle({ ok: false, error: loaded });
      authFile = { code: message.source.code, loaded };
    }
    const { loaded } = authFile;
    current = loaded;
    try {
      const step = exportOf(loaded, message.name);
      if (typeof step !== 'function') throw new TypeError(`${message.source.file} must export a function ${message.name}`);
      // createCodeVerifier(randomBytes) is handed the platform's randomness, which no message can carry.
      const args = message.name === 'createCodeVerifier' ? [(length: number) => globalThis.crypto.getRandomValues(new Uint8Array(length))] : message.args;
      const value: unknown = await (step as (...args: unknown[]) => unknown)(...args);
      settle({ ok: true, value: jsonSafe(value) });
    } catch (error) {
      settle({ ok: false, error: fail(error) });
    }
  }

  /** A client call made by the learner's code, answered by the page's McpClient. */
  function agentRpc(call: AgentRpcCall): Promise<unknown> {
    const rpcId = nextRpcId++;
    return new Promise((resolve, reject) => {
      agentRpcs.set(rpcId, { resolve, reject });
      post({ type: 'agent-rpc', rpcId, call });
    });
  }

  function settleAgentRpc(message: Extract<PageToLearner, { type: 'agent-rpc-result' }>): void {
    const waiter = agentRpcs.get(message.rpcId);
    agentRpcs.delete(message.rpcId);
    if (waiter === undefined) return;
    if (message.outcome.ok) return waiter.resolve(message.outcome.value);
    // Rebuilt as an Error with the JSON-RPC code, as McpClient throws it on the page.
    const info = message.outcome.error;
    const error = Object.assign(new Error(info.message), { code: info.code ?? undefined });
    error.name = info.name;
    waiter.reject(error);
  }

  async function agentMerge(message: Extract<PageToLearner, { type: 'agent-merge' }>): Promise<void> {
    const registryModule = deps.protocolModules['@protocol/registry'] as { ToolRegistry: new () => ToolRegistry };
    const registry = createLocalRegistry(registryModule, CHAPTER_TOOL_NAMES);
    agentRegistry = registry;
    const client = {
      listTools: () => agentRpc({ method: 'listTools' }),
      callTool: (name: unknown, args?: unknown) => agentRpc({ method: 'callTool', name: String(name), args: isRecord(args) ? args : {} }),
    };
    const outcome = await runLearnerRegister(message.source, registry, client, (loaded) => ({ prefix: message.prefix, server: 'echo', risk: riskFunction(loaded) }));
    post({ type: 'agent-merged', outcome: { ...outcome, tools: toolRows(registry.list()) } });
  }

  /** The learner's own riskFromAnnotations when the file has one, else the reference's. */
  function riskFunction(loaded: Loaded): unknown {
    try {
      const own = loaded.exports.riskFromAnnotations;
      if (typeof own === 'function') return own;
    } catch {
      // The guarded exports throw for a missing name: fall through to the reference.
    }
    return (deps.protocolModules['@protocol/register-mcp-tools'] as { riskFromAnnotations: unknown }).riskFromAnnotations;
  }

  async function agentExecute(message: Extract<PageToLearner, { type: 'agent-execute' }>): Promise<void> {
    if (agentRegistry === null) return post({ type: 'agent-executed', execId: message.execId, outcome: { ok: false, text: 'Your registry is not set up: connect and merge first.' } });
    // registry.execute turns throws into data; the registry is the reference ToolRegistry, the executors the learner's.
    const outcome = await agentRegistry.execute(message.name, message.args);
    post({ type: 'agent-executed', execId: message.execId, outcome: { ok: outcome.ok, text: String(outcome.text) } });
  }

  const heartbeat = realSetInterval(() => post({ type: 'alive' }), deps.heartbeatMs ?? LEARNER_HEARTBEAT_MS);
  post({ type: 'ready' });

  return {
    handle(data) {
      const message = data as PageToLearner;
      switch (message?.type) {
        case 'client-start':
          return startClient(message);
        case 'client-call':
          void call(message.callId, message.op);
          return;
        case 'http-client-start':
          return startHttpClient(message);
        case 'http-head':
        case 'http-failed':
        case 'http-body':
        case 'http-end':
          return http?.handle(message);
        case 'transport-data':
          return deliver(dataListeners, message.bytes);
        case 'transport-close':
          return deliver(closeListeners, message.reason);
        case 'flush':
          // One macrotask: whatever the delivered bytes set off (promise continuations) has run.
          realSetTimeout(() => post({ type: 'flushed', flushId: message.flushId }), 0);
          return;
        case 'reader-run':
          return runReader(message);
        case 'register-run':
          void runRegister(message);
          return;
        case 'agent-merge':
          void agentMerge(message);
          return;
        case 'agent-rpc-result':
          return settleAgentRpc(message);
        case 'agent-execute':
          void agentExecute(message);
          return;
        case 'auth-call':
          void authCall(message);
          return;
        default:
          return;
      }
    },
    reportUncaught(error) {
      post({ type: 'client-event', event: { type: 'uncaught', error: fail(error) } });
    },
    dispose() {
      clearInterval(heartbeat);
      timers?.dispose();
    },
  };
}

/** The learner's client events, checked and copied: only the shapes the stepper understands pass. */
function toDriverEvent(raw: unknown): DriverEvent | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const event = raw as Record<string, unknown>;
  switch (event.type) {
    case 'state':
      return isState(event.from) && isState(event.to) ? { type: 'state', from: event.from, to: event.to, cause: String(event.cause ?? '') } : null;
    case 'protocol-error':
      return { type: 'protocol-error', detail: String(event.detail ?? '') };
    case 'sent':
    case 'received':
    case 'notification':
      return { type: event.type, message: jsonSafe(event.message) as never };
    default:
      return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isState(value: unknown): value is 'new' | 'initialized' | 'ready' | 'closed' {
  return value === 'new' || value === 'initialized' || value === 'ready' || value === 'closed';
}

function jsonSafe(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    return String(value);
  }
}
