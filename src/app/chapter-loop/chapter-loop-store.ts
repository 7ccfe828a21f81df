// The Chapter loop's state, outside React: a fresh connection to the live echo server with the
// reference McpClient, the merge (reference or learner registerMcpTools, with or without prefix),
// the table, the scripted turn with its approval gate, and every frame of the connection.
// Components only render this and call its methods.

import type { FaultName } from '../../protocol/faults.ts';
import type { FramingName } from '../../protocol/framing/types.ts';
import { McpClient } from '../../protocol/client.ts';
import type { ToolInfo } from '../../protocol/mcp.ts';
import type { McpToolSource } from '../../protocol/register-mcp-tools.ts';
import type { Unsubscribe } from '../../protocol/transport.ts';
import type { Wire } from '../../runtime/host.ts';
import { createStore, ExternalStore, type Store } from '../store/create-store.ts';
import type { DriverKind, ErrorInfo } from '../../sandbox/client-driver.ts';
import type { InspectTarget } from '../protocol/inspect-target.ts';
import type { Arrow } from '../protocol/stepper-records.ts';
import type { ServerPort } from '../protocol/stepper-types.ts';
import { runAgentTurn, type AgentLoopDeps, type ApprovalRequest, type TranscriptEntry } from './agent-loop.ts';
import { AGENT_PREFIX, type AgentRegistry } from './agent-registry.ts';
import type { AgentScript } from './agent-script.ts';
import type { CallWindow } from './call-frames.ts';
import { checkMerge, type MergeProblem } from './merge-check.ts';
import type { ToolRow } from '../../sandbox/tool-table.ts';
import { WireRecorder } from './wire-recorder.ts';

export type AgentPhase = 'idle' | 'connecting' | 'merging' | 'ready' | 'running' | 'approval' | 'failed';

export interface MergeReport {
  code: DriverKind;
  prefix: string;
  ok: boolean;
  count: number | null;
  error: ErrorInfo | null;
  /** Only for a merge that said it succeeded: what it did wrong. */
  problems: MergeProblem[];
  listed: string[];
}

/** Which era the chapter loop's connection speaks: exercise 3's handshake, or 2026-07-28. */
export type LoopEra = 'handshake' | 'modern';

export interface AgentState {
  code: DriverKind;
  era: LoopEra;
  usePrefix: boolean;
  /** Start the server with the error-as-rpc-error fault: a failing tool answers with a JSON-RPC error. */
  rpcErrorFault: boolean;
  phase: AgentPhase;
  /** Why the connection failed (phase 'failed'). */
  failure: string | null;
  tools: ToolRow[];
  merge: MergeReport | null;
  transcript: TranscriptEntry[];
  windows: CallWindow[];
  arrows: Arrow[];
  approval: ApprovalRequest | null;
  /** Bumped per connection, so views can reset what they show. */
  connection: number;
}

export interface ChapterLoopTexts {
  refusal(request: ApprovalRequest): string;
  notRegistered(call: { tool: string; server: string }): string;
}

export interface ChapterLoopStoreOptions {
  server: ServerPort;
  createRegistry(kind: DriverKind): AgentRegistry;
  localRows(): ToolRow[];
  /** Called before the live server is replaced (the stepper lets go of it). */
  beforeConnect?(): void;
  requestTimeoutMs?: number;
}

const RPC_ERROR_FAULT: FaultName = 'error-as-rpc-error';

/**
 * A connected client in the chosen era: exercise 3's McpClient (initialize, initialized), or the
 * dual-era client pinned to 2026-07-28 (server/discover, then `_meta` on every request), loaded
 * on first use. `hold` gets the client before it connects, so a teardown can close it meanwhile.
 */
async function connectInEra(era: LoopEra, wire: Wire, framing: FramingName, requestTimeoutMs: number, hold: (client: { close(): void }) => void): Promise<Pick<McpClient, 'listTools' | 'callTool' | 'close'>> {
  if (era === 'handshake') {
    const client = new McpClient(wire, { framing, requestTimeoutMs });
    hold(client);
    await client.connect();
    return client;
  }
  const { DualEraClient } = await import('../../protocol/era/dual-era-client.ts');
  const { MODERN_PROTOCOL_VERSION } = await import('../../protocol/era/meta.ts');
  const client = new DualEraClient({ kind: 'stdio', transport: wire, framing }, { era: { pin: MODERN_PROTOCOL_VERSION }, requestTimeoutMs });
  hold(client);
  await client.connect();
  return client;
}

export class ChapterLoopStore extends ExternalStore<AgentState> {
  protected readonly store: Store<AgentState>;
  private wire: Wire | null = null;
  private client: { close(): void } | null = null;
  private registry: AgentRegistry | null = null;
  private recorder: WireRecorder | null = null;
  private detach: Unsubscribe[] = [];
  private decide: ((yes: boolean) => void) | null = null;
  private token = 0;

  constructor(private readonly options: ChapterLoopStoreOptions) {
    super();
    this.store = createStore<AgentState>({
      code: 'reference',
      era: 'handshake',
      usePrefix: true,
      rpcErrorFault: false,
      phase: 'idle',
      failure: null,
      tools: options.localRows(),
      merge: null,
      transcript: [],
      windows: [],
      arrows: [],
      approval: null,
      connection: 0,
    });
  }

  setCode(code: DriverKind): void {
    if (!this.busy()) this.update({ code });
  }
  setEra(era: LoopEra): void {
    if (!this.busy()) this.update({ era });
  }
  setUsePrefix(usePrefix: boolean): void {
    if (!this.busy()) this.update({ usePrefix });
  }
  setRpcErrorFault(rpcErrorFault: boolean): void {
    if (!this.busy()) this.update({ rpcErrorFault });
  }

  busy(): boolean {
    const { phase } = this.getSnapshot();
    return phase === 'connecting' || phase === 'merging' || phase === 'running' || phase === 'approval';
  }

  /** A fresh server, the handshake, and the merge. Resolves when the table shows the outcome. */
  async connectAndMerge(): Promise<void> {
    if (this.busy()) return;
    const token = this.teardown();
    const { code, usePrefix, rpcErrorFault, era } = this.getSnapshot();
    this.update({ phase: 'connecting', failure: null, merge: null, transcript: [], windows: [], arrows: [], approval: null, tools: this.options.localRows(), connection: this.getSnapshot().connection + 1 });
    this.options.beforeConnect?.();
    const settings = this.options.server.settings();
    const started = await this.options.server.start({ framing: settings.framing, faults: rpcErrorFault ? [RPC_ERROR_FAULT] : [] });
    if (token !== this.token) return;
    if (!started.ok) return this.update({ phase: 'failed', failure: started.reason });
    const wire = started.wire;
    this.wire = wire;
    const recorder = new WireRecorder(settings.framing, () => this.update({ arrows: [...recorder.arrows] }));
    this.recorder = recorder;
    this.detach.push(wire.onTapEvent((event) => recorder.record(event)));
    const requestTimeoutMs = this.options.requestTimeoutMs ?? 15_000;
    let client: Pick<McpClient, 'listTools' | 'callTool' | 'close'>;
    try {
      client = await connectInEra(era, wire, settings.framing, requestTimeoutMs, (connecting) => {
        this.client = connecting;
      });
      if (token !== this.token) return;
    } catch (error) {
      if (token === this.token) this.update({ phase: 'failed', failure: error instanceof Error ? error.message : String(error) });
      return;
    }
    if (token !== this.token) return;
    this.update({ phase: 'merging' });
    const prefix = usePrefix ? AGENT_PREFIX : '';
    const registry = this.options.createRegistry(code);
    this.registry = registry;
    let listed: ToolInfo[] = [];
    const source: McpToolSource = {
      listTools: async () => {
        listed = await client.listTools();
        return listed;
      },
      callTool: (name, args) => client.callTool(name, args),
    };
    const result = await registry.merge(prefix, source);
    if (token !== this.token) return;
    const local = this.options.localRows();
    const tools = result.tools.length > 0 ? result.tools : local;
    const problems = result.ok ? checkMerge(listed, prefix, local, tools) : [];
    this.update({
      phase: 'ready',
      tools,
      merge: { code, prefix, ok: result.ok, count: result.count, error: result.error, problems, listed: listed.map((tool) => tool.name) },
    });
  }

  /** Run the scripted turn through the merged registry. */
  async runTurn(script: AgentScript, texts: ChapterLoopTexts): Promise<void> {
    const registry = this.registry;
    if (this.getSnapshot().phase !== 'ready' || registry === null) return;
    const token = this.token;
    const prefix = this.getSnapshot().merge?.prefix ?? '';
    this.update({ phase: 'running', transcript: [], windows: [] });
    const live = () => token === this.token;
    const deps: AgentLoopDeps = {
      rows: () => this.getSnapshot().tools,
      prefix,
      execute: (name, args) => registry.execute(name, args),
      approve: (request) =>
        new Promise<boolean>((resolve) => {
          if (!live()) return resolve(false);
          this.decide = (yes) => {
            this.decide = null;
            this.update({ approval: null, phase: 'running' });
            resolve(yes);
          };
          this.update({ approval: request, phase: 'approval' });
        }),
      refusal: texts.refusal,
      notRegistered: texts.notRegistered,
      emit: (entry) => {
        if (live()) this.update({ transcript: [...this.getSnapshot().transcript, entry] });
      },
      callStarted: (call, row) => {
        if (live()) this.update({ windows: [...this.getSnapshot().windows, { call, name: row.name, firstSeq: this.recorder?.arrows.length ?? 0, endSeq: null }] });
      },
      callEnded: (call) => {
        if (!live()) return;
        // Responses are matched by id later; the window only has to contain the requests.
        const endSeq = this.recorder?.arrows.length ?? 0;
        this.update({ windows: this.getSnapshot().windows.map((window) => (window.call === call ? { ...window, endSeq } : window)) });
      },
      cancelled: () => !live(),
    };
    await runAgentTurn(script, deps);
    if (live()) this.update({ phase: 'ready' });
  }

  approve(): void {
    this.decide?.(true);
  }

  deny(): void {
    this.decide?.(false);
  }

  /** The byte inspector's view of one recorded frame. */
  inspectTarget(seq: number): InspectTarget | null {
    const arrow = this.recorder?.arrows[seq];
    return arrow ? this.recorder!.target(arrow) : null;
  }

  dispose(): void {
    this.teardown();
  }

  /** Drop the connection and everything bound to it; returns the new token. */
  private teardown(): number {
    this.token++;
    this.decide?.(false);
    this.decide = null;
    for (const stop of this.detach) stop();
    this.detach = [];
    this.registry?.dispose();
    this.registry = null;
    this.client?.close();
    this.client = null;
    this.wire?.kill();
    this.wire = null;
    this.recorder = null;
    return this.token;
  }

  private update(patch: Partial<AgentState>): void {
    this.store.setState((state) => ({ ...state, ...patch }));
  }
}
