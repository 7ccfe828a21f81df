// A client for both eras of MCP (basic/versioning.mdx "Backward Compatibility"):
//
//   era 'auto' (the default)  probe with `server/discover`; a modern answer (or -32022 naming a
//                             version we speak) keeps the client modern, anything else falls back
//                             to the `initialize` handshake — on stdio over the same pipe, on HTTP
//                             with the 2025-11-25 transport.
//   era { pin: '2026-07-28' } modern at exactly that version, or a loud failure: no fallback.
//   era 'legacy'              the handshake only, exactly as McpClient does it (exercise 3).
//
//   connect() ─┬─ cached verdict? ── use it, no probe
//              └─ server/discover ─┬─ DiscoverResult with a version we speak ── modern
//                                  ├─ -32022 + mutual version ── probe again with it (once)
//                                  ├─ -32020 / -32021 / HTTP down ── fail
//                                  └─ anything else ── legacy: McpClient.connect()
//
// In the modern era every request goes through ModernSession (the `_meta` envelope, the -32022
// retry, resultType and MRTR rounds); in the legacy era through McpClient, unchanged. The same
// input handlers serve both: MRTR's inputRequests in one era, the server's own requests in the other.

import { McpClient } from '../client.ts';
import type { ClientEvent } from '../client-events.ts';
import { Listeners } from '../client-events.ts';
import { McpRpcError } from '../client-errors.ts';
import { checkCallToolResult, checkListToolsResult, expectShape } from '../client-result-checks.ts';
import type { FramingName } from '../framing/types.ts';
import type { CallToolResult, Implementation, ToolInfo } from '../mcp.ts';
import { answerServerRequests, type ServerRequestHandler } from '../server-requests.ts';
import type { ByteTransport, Unsubscribe } from '../transport.ts';
import { EraNegotiationError } from './era-errors.ts';
import type { EraCache } from './era-cache.ts';
import { INPUT_METHODS, type InputHandlers, type InputMethod } from './input-requests.ts';
import { EraErrorCode, MODERN_PROTOCOL_VERSIONS } from './meta.ts';
import { ModernSession, type ModernSessionOptions } from './modern-session.ts';
import type { DiscoverResult, ProbeOutcome, ProbeVerdict } from './probe.ts';
import { RpcChannel } from './rpc-channel.ts';

export type EraMode = 'auto' | 'legacy' | { pin: string };

/** What DualEraClient needs of the modern half: ModernSession, or a learner's own (exercise 7). */
export type ModernSessionLike = Pick<ModernSession, 'discover' | 'request' | 'version' | 'serverInfo'>;
export type ModernSessionClass = new (channel: RpcChannel, options: ModernSessionOptions) => ModernSessionLike;
export type Era = 'modern' | 'legacy';

/**
 * How to reach the server. On stdio both eras share one pipe; over HTTP each era has its own
 * transport (the modern one: POST only, no session; the legacy one is made only if needed).
 */
export type EraConnection =
  | { kind: 'stdio'; transport: ByteTransport; framing: FramingName }
  | { kind: 'http'; modern: ByteTransport; legacy: () => ByteTransport };

export interface DualEraClientOptions {
  era?: EraMode;
  clientInfo?: Implementation;
  /** Answers to what a server may ask for (elicitation, sampling, roots), in either era. */
  inputHandlers?: InputHandlers;
  requestTimeoutMs?: number;
  /** How long the probe waits; on stdio, silence this long means a legacy server. Default 10 s. */
  probeTimeoutMs?: number;
  /** Modern versions to offer, preferred first. */
  modernVersions?: readonly string[];
  /** Where the verdict per server is remembered (stdio: the command line; HTTP: the origin). */
  cache?: { store: EraCache; serverKey: string };
  /**
   * The modern half: ModernSession by default. Exercise 7's learner writes their own in
   * stateless-client.ts; passing its class here runs the app's dual-era client on their code.
   */
  sessionClass?: ModernSessionClass;
}

/** What the client learned about the server when it connected. */
export interface EraConnectResult {
  era: Era;
  protocolVersion: string;
  serverInfo?: Implementation;
  capabilities?: Record<string, unknown>;
  instructions?: string;
  /** Why this era, in words: the probe's verdict, the cache, or the mode. */
  cause: string;
}

export type DualEraEvent =
  | ClientEvent
  | { type: 'probe'; version: string; outcome: ProbeOutcome; verdict: ProbeVerdict }
  | { type: 'era'; era: Era; version: string; cause: string };

export const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcp-playground-dual-era-client', version: '0.1.0' };
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const DEFAULT_PROBE_TIMEOUT_MS = 10_000;
const MAX_TOOL_PAGES = 1000;

export class DualEraClient {
  private readonly channel: RpcChannel;
  private readonly listeners = new Listeners<DualEraEvent>();
  private readonly clientInfo: Implementation;
  private readonly inputHandlers: InputHandlers;
  private readonly requestTimeoutMs: number;
  private modern: ModernSessionLike | undefined;
  private legacy: McpClient | undefined;
  private connected: EraConnectResult | undefined;
  private connecting: Promise<EraConnectResult> | undefined;

  constructor(
    private readonly connection: EraConnection,
    private readonly options: DualEraClientOptions = {},
  ) {
    this.clientInfo = options.clientInfo ?? DEFAULT_CLIENT_INFO;
    this.inputHandlers = options.inputHandlers ?? {};
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const transport = connection.kind === 'stdio' ? connection.transport : connection.modern;
    this.channel = new RpcChannel(transport, { framing: this.framing });
    this.channel.on((event) => this.listeners.emit(event));
  }

  on(listener: (event: DualEraEvent) => void): Unsubscribe {
    return this.listeners.add(listener);
  }

  get era(): Era | undefined {
    return this.connected?.era;
  }

  get protocolVersion(): string | undefined {
    return this.modern?.version ?? this.legacy?.negotiatedVersion;
  }

  get serverInfo(): Implementation | undefined {
    return this.modern?.serverInfo ?? this.connected?.serverInfo;
  }

  /**
   * Find the server's era (probe, cache or mode) and get ready to send requests in it. Runs once:
   * later calls share the answer, a failure included (the pipe may be handed over by then; make a new client).
   */
  connect(): Promise<EraConnectResult> {
    this.connecting ??= this.findEra();
    return this.connecting;
  }

  private async findEra(): Promise<EraConnectResult> {
    const mode = this.options.era ?? 'auto';
    if (mode === 'legacy') return this.startLegacy('era "legacy": the handshake, without a probe');

    const cached = mode === 'auto' ? this.options.cache?.store.get(this.options.cache.serverKey) : undefined;
    if (cached?.era === 'legacy') return this.startLegacy('the era cache says this server speaks the handshake');
    if (cached?.era === 'modern' && this.modernVersions.includes(cached.version)) {
      return this.startModern(cached.version, undefined, `the era cache says this server speaks ${cached.version}`);
    }

    // The probe lives in ModernSession (the module exercise 7 has the learner write): it sends
    // server/discover, asks once more after a -32022 naming a version we speak, and classifies.
    const session = this.newModernSession(this.modernVersions[0]!);
    const verdict = await session.discover({
      transport: this.connection.kind,
      timeoutMs: this.options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
      versions: typeof mode === 'object' ? [mode.pin] : this.modernVersions,
      onProbe: (version, outcome, probed) => this.listeners.emit({ type: 'probe', version, outcome, verdict: probed }),
    });
    switch (verdict.kind) {
      case 'modern':
        return this.startModern(verdict.version, verdict.discover, `server/discover offered ${verdict.version}`, session);
      case 'legacy':
        if (typeof mode === 'object') throw new EraNegotiationError(`pinned to ${mode.pin}, but ${verdict.reason} (no fallback when pinned)`);
        return this.startLegacy(`fell back to the handshake: ${verdict.reason}`);
      default:
        throw new EraNegotiationError(verdict.reason);
    }
  }

  /** Every tool, page by page. Over HTTP in the modern era, tools with invalid x-mcp-header annotations are already left out. */
  async listTools(): Promise<ToolInfo[]> {
    const legacy = this.legacyClient();
    if (legacy !== undefined) return legacy.listTools();
    const tools: ToolInfo[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const raw = await this.request('tools/list', cursor === undefined ? undefined : { cursor });
      const result = expectShape('tools/list', raw, checkListToolsResult);
      tools.push(...result.tools);
      if (result.nextCursor === undefined || seen.has(result.nextCursor)) return tools;
      seen.add(result.nextCursor);
      cursor = result.nextCursor;
    }
    return tools;
  }

  /** Call a tool. A tool that fails is a result with `isError: true`; only protocol failures reject. */
  async callTool(name: string, args?: Record<string, unknown>): Promise<CallToolResult> {
    const legacy = this.legacyClient();
    if (legacy !== undefined) return legacy.callTool(name, args);
    const params = { name, arguments: args ?? {} };
    try {
      return expectShape('tools/call', await this.request('tools/call', params), checkCallToolResult);
    } catch (error) {
      // HTTP: -32020 on a tools/call means the Mcp-Param-* headers did not match the tool's
      // x-mcp-header annotations — not listed yet, or changed. The spec's advice: list the tools
      // again (the transport learns their annotations from the answer) and retry once.
      if (this.connection.kind !== 'http' || !(error instanceof McpRpcError) || error.code !== EraErrorCode.HeaderMismatch) throw error;
      await this.listTools();
      return expectShape('tools/call', await this.request('tools/call', params), checkCallToolResult);
    }
  }

  /** Any request of the specification, in the era the server speaks; the result comes back unchecked. */
  async request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
    const legacy = this.legacyClient();
    if (legacy !== undefined) return (await legacy.sendRequest(method, params)) as Record<string, unknown>;
    if (this.modern === undefined) throw new EraNegotiationError(`call connect() before ${method}`);
    return this.modern.request(method, params);
  }

  close(): void {
    this.channel.close();
    this.legacy?.close();
  }

  // ---- finding the era ----

  private get framing(): FramingName {
    return this.connection.kind === 'stdio' ? this.connection.framing : 'ndjson';
  }

  private get modernVersions(): readonly string[] {
    return this.options.modernVersions ?? MODERN_PROTOCOL_VERSIONS;
  }

  private newModernSession(version: string): ModernSessionLike {
    const Session = this.options.sessionClass ?? ModernSession;
    return new Session(this.channel, {
      version,
      versions: this.modernVersions,
      clientInfo: this.clientInfo,
      inputHandlers: this.inputHandlers,
      requestTimeoutMs: this.requestTimeoutMs,
      onVersionChange: (changed) => this.remember({ era: 'modern', version: changed }),
    });
  }

  /** `session`: the one that probed, already at `version`; a cached verdict makes a new one. */
  private startModern(version: string, discover: DiscoverResult | undefined, cause: string, session: ModernSessionLike = this.newModernSession(version)): EraConnectResult {
    this.modern = session;
    this.remember({ era: 'modern', version });
    return this.settle({ era: 'modern', protocolVersion: version, serverInfo: discover?.serverInfo, capabilities: discover?.capabilities, instructions: discover?.instructions, cause });
  }

  /** Hand the connection to McpClient (exercise 3's client, unchanged) and run the handshake. */
  private async startLegacy(cause: string): Promise<EraConnectResult> {
    const firstId = this.channel.peekNextId;
    let transport: ByteTransport;
    if (this.connection.kind === 'stdio') {
      this.channel.detach(); // same pipe: McpClient reads from here on
      transport = this.connection.transport;
    } else {
      this.channel.close(); // the modern HTTP transport is done; the legacy one has sessions and a GET stream
      transport = this.connection.legacy();
    }
    if (Object.keys(this.inputHandlers).length > 0) transport = answerServerRequests(transport, { framing: this.framing, handlers: this.legacyHandlers() });
    const client = new McpClient(transport, { framing: this.framing, clientInfo: this.clientInfo, requestTimeoutMs: this.requestTimeoutMs, firstId });
    client.on((event) => this.listeners.emit(event));
    this.legacy = client;
    try {
      const result = await client.connect();
      this.remember({ era: 'legacy' });
      return this.settle({ era: 'legacy', protocolVersion: result.protocolVersion, serverInfo: result.serverInfo, capabilities: result.capabilities, instructions: result.instructions, cause });
    } catch (error) {
      // The remembered verdict did not hold: forget it, so the next connect probes again.
      if (this.options.cache !== undefined) this.options.cache.store.forget(this.options.cache.serverKey);
      throw error;
    }
  }

  /** The same handlers, in the shape the legacy wrapper wants: method → capability + handler. */
  private legacyHandlers(): Record<string, { capability: string; handle: ServerRequestHandler }> {
    const handlers: Record<string, { capability: string; handle: ServerRequestHandler }> = {};
    for (const method of Object.keys(this.inputHandlers) as InputMethod[]) {
      const handle = this.inputHandlers[method];
      if (handle !== undefined) handlers[method] = { capability: INPUT_METHODS[method], handle };
    }
    return handlers;
  }

  private remember(record: { era: 'modern'; version: string } | { era: 'legacy' }): void {
    this.options.cache?.store.set(this.options.cache.serverKey, record);
  }

  private settle(result: EraConnectResult): EraConnectResult {
    const clean = Object.fromEntries(Object.entries(result).filter(([, value]) => value !== undefined)) as unknown as EraConnectResult;
    this.connected = clean;
    this.listeners.emit({ type: 'era', era: clean.era, version: clean.protocolVersion, cause: clean.cause });
    return clean;
  }

  private legacyClient(): McpClient | undefined {
    return this.connected?.era === 'legacy' ? this.legacy : undefined;
  }
}
