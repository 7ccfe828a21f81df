// The SDK checks' state outside React: which check runs, its progress, and the last report of each.
// A run starts its own program on the live host (not the live panel's echo server, which keeps
// running untouched), runs the checks, and stops that program again.
//
// Learner code and the hosts (issue 12): Check my server on a bridge that does not run learner
// code runs in the in-browser worker instead, and the state says why (`fallback`). Code that came
// from a share link (a scratch copy) or an imported progress file runs anywhere but the worker
// only after the learner said yes.

import type { LearnerCodeMode, LearnerCodeRefusal } from '../../runtime/bridge-messages.ts';
import type { Host, HostKind, LearnerServerSource, ProgramName } from '../../runtime/host.ts';
import type { ClientDriver } from '../../sandbox/client-driver.ts';
import type { HttpWire } from '../../runtime/http-tap-wire.ts';
import type { LearnerHttpDriver } from '../protocol/learner-http-driver.ts';
import type { LearnerEraConfig, LearnerSource } from '../../sandbox/learner-worker-messages.ts';
import { createStore, ExternalStore, type Store } from '../store/create-store.ts';
import type { HostSelectionState } from '../live-session/live-session-store.ts';
import { errorReport, type CheckResult, type CheckSuite, type SdkCheckReport } from './check-run.ts';
import { blockerFor, PROGRAM_OF, workerFallbackFor, type Blocker } from './host-support.ts';

type Checkers = typeof import('./checkers.ts');

/** Why a run ended before any check ran; the panel words each kind. */
export type RunProblem =
  | Blocker
  | { kind: 'start-failed'; host: HostKind; detail: string }
  | { kind: 'crashed'; detail: string }
  | { kind: 'declined'; host: HostKind };

/** Why a run went to the in-browser worker instead of the chosen host (null: it did not). */
export type Fallback = LearnerCodeRefusal | null;

export type SuiteState =
  | { status: 'idle' }
  | { status: 'running'; phase: 'loading' | 'starting' | 'checking'; host: HostKind | null; results: CheckResult[]; total: number | null; fallback?: Fallback; program?: ProgramName }
  | { status: 'done'; host: HostKind | null; report: SdkCheckReport; problem: RunProblem | null; seq: number; fallback?: Fallback };

/**
 * Which official client Check my server uses: SDK 1.32's (the handshake era) or SDK 2.4.0's in
 * its default version negotiation (a 2026-07-28 client: it probes server/discover, then falls back).
 */
export type ServerCheckClient = 'sdk1' | 'sdk2';

/** Which official server Check my client meets: SDK 1.32, SDK 2.4.0 serving both eras, or SDK 2.4.0 in modern mode. */
export type ClientCheckServer = 'sdk1' | 'sdk2' | 'sdk2-modern';

/**
 * Whose code Check my client runs: the exercise-3 client (the handshake era), or the exercise-7
 * ModernSession inside the app's DualEraClient (it probes server/discover, falls back on SDK 1.32).
 */
export type ClientCheckCode = 'exercise-3' | 'exercise-6' | 'exercise-7';

/** How the worker runs an exercise-7 file for the checks: the dual-era client probes first. */
const ERA_CLIENT_CONFIG: LearnerEraConfig = { mode: 'probe' };

export interface SdkChecksState {
  client: SuiteState;
  server: SuiteState;
  serverClient: ServerCheckClient;
  clientServer: ClientCheckServer;
  clientCode: ClientCheckCode;
}

/** Code the learner did not write here: a share link's, or an imported progress file's. */
export type ForeignCodeSource = 'share-link' | 'imported-file';

export interface SdkChecksDeps {
  hostSelection(): HostSelectionState;
  /** The live host chosen for the page, or null before (or without) one. */
  host(): Host | null;
  /** Whether the page's bridge runs learner code (bridgeLearnerCodeFromPage()). */
  bridgeLearnerCode(): LearnerCodeMode;
  /** The in-browser worker host, for Check my server when the bridge does not run learner code. */
  workerHost(): Host;
  /** True when the exercise-4 code in the editor came from a share link (a scratch copy). */
  serverCodeIsShared?(): boolean;
  /** Where the exercise-4 code came from; when given, it decides instead of serverCodeIsShared. */
  serverCodeSource?(): 'own' | ForeignCodeSource;
  /** Ask the learner before someone else's code runs anywhere but the worker; false: do not run. */
  confirmSharedCode?(host: HostKind, source: ForeignCodeSource): Promise<boolean>;
  /** The learner said yes (an imported file's code is then theirs: not asked again). */
  sharedCodeAccepted?(source: ForeignCodeSource): void;
  /** The learner's code for Check my client: exercise 3's client.ts or exercise 7's stateless-client.ts. */
  clientSource(code: ClientCheckCode): LearnerSource;
  /** Which code Check my client starts with (the page: exercise 7 when the learner is on it). */
  defaultClientCode?(): ClientCheckCode;
  serverSource(): LearnerServerSource;
  /** The learner's client in the learner-code worker; with `era`, exercise 7's ModernSession inside DualEraClient. */
  createClientDriver(source: LearnerSource, era?: LearnerEraConfig): ClientDriver;
  /** Exercise 6: the learner's HttpClientTransport under McpClient in the learner-code worker (HTTP mode). */
  createHttpClientDriver?(source: LearnerSource): LearnerHttpDriver;
  /** Default: the dynamic import of ./checkers.ts (the SDK stays out of the first paint). */
  loadCheckers?(): Promise<Checkers>;
  limitMs?: number;
}

const IDLE: SuiteState = { status: 'idle' };

export class SdkChecksStore extends ExternalStore<SdkChecksState> {
  protected readonly store: Store<SdkChecksState>;
  private seq = 0;

  constructor(private readonly deps: SdkChecksDeps) {
    super();
    const clientCode = deps.defaultClientCode?.() ?? 'exercise-3';
    // Exercise 7 is about 2026-07-28: start it against the server that speaks only that.
    this.store = createStore<SdkChecksState>({ client: IDLE, server: IDLE, serverClient: 'sdk1', clientServer: clientCode === 'exercise-7' ? 'sdk2-modern' : 'sdk1', clientCode });
  }

  isBusy(): boolean {
    const { client, server } = this.getSnapshot();
    return client.status === 'running' || server.status === 'running';
  }

  /** What stops `suite` from running now, if anything (the panel disables its button and says why). */
  blocker(_suite: CheckSuite): Blocker | null {
    return blockerFor(this.deps.hostSelection());
  }

  /** Where `suite` would run instead of the chosen host, and why (null: on the chosen host). */
  fallback(suite: CheckSuite): Fallback {
    const selection = this.deps.hostSelection();
    return workerFallbackFor(suite, selection.status === 'chosen' ? selection.kind : null, this.deps.bridgeLearnerCode());
  }

  setClientServer(clientServer: ClientCheckServer): void {
    if (!this.isBusy()) this.store.setState((state) => ({ ...state, clientServer }));
  }

  setClientCode(clientCode: ClientCheckCode): void {
    if (!this.isBusy()) this.store.setState((state) => ({ ...state, clientCode }));
  }

  setServerClient(serverClient: ServerCheckClient): void {
    if (!this.isBusy()) this.store.setState((state) => ({ ...state, serverClient }));
  }

  /** Run one suite to its report. One run at a time: a second press while busy does nothing. */
  async run(suite: CheckSuite): Promise<void> {
    if (this.isBusy()) return;
    const chosen = this.deps.host();
    const blocker = this.blocker(suite) ?? (chosen === null ? ({ kind: 'no-host' } as const) : null);
    if (blocker !== null || chosen === null) {
      this.finish(suite, null, errorReport(suite, blockerText(blocker ?? { kind: 'no-host' })), blocker);
      return;
    }
    const fallback = workerFallbackFor(suite, chosen.kind, this.deps.bridgeLearnerCode());
    const host = fallback === null ? chosen : this.deps.workerHost();
    // Read the code now: what the learner sees in the editor at the press is what gets checked.
    const clientCode = this.getSnapshot().clientCode;
    const clientSource = suite === 'client' ? this.deps.clientSource(clientCode) : null;
    const serverSource = suite === 'server' ? this.deps.serverSource() : null;
    const codeSource = this.deps.serverCodeSource?.() ?? (this.deps.serverCodeIsShared?.() ? 'share-link' : 'own');
    if (serverSource && host.kind !== 'worker' && codeSource !== 'own') {
      // Someone else's code, about to run as a process (bridge) or in Node in the browser (WebContainer).
      this.set(suite, { status: 'running', phase: 'loading', host: host.kind, results: [], total: null, fallback });
      const agreed = await (this.deps.confirmSharedCode ?? (async () => false))(host.kind, codeSource);
      if (agreed) this.deps.sharedCodeAccepted?.(codeSource);
      if (!agreed) {
        this.finish(suite, host.kind, errorReport(suite, `You chose not to run code from a share link or an imported file on the ${host.kind} host.`), { kind: 'declined', host: host.kind }, fallback);
        return;
      }
    }
    this.set(suite, { status: 'running', phase: 'loading', host: host.kind, results: [], total: null, fallback });
    let checkers: Checkers;
    try {
      checkers = await (this.deps.loadCheckers ?? (() => import('./checkers.ts')))();
    } catch (error) {
      this.finish(suite, host.kind, errorReport(suite, `The SDK could not be loaded: ${messageOf(error)}`), { kind: 'crashed', detail: messageOf(error) }, fallback);
      return;
    }
    const clientServer = this.getSnapshot().clientServer;
    // HTTP mode (exercise 6): the official SDK's Streamable HTTP server, whatever the stdio server choice says.
    const http = suite === 'client' && clientCode === 'exercise-6';
    const program: ProgramName = http ? 'sdk-http-server' : suite === 'client' && clientServer !== 'sdk1' ? 'sdk2-echo-server' : PROGRAM_OF[suite];
    this.set(suite, { status: 'running', phase: 'starting', host: host.kind, results: [], total: null, fallback, program });
    let wire;
    try {
      wire = await host.start(
        serverSource
          ? { program, framing: 'ndjson', faults: [], learnerServer: serverSource }
          : { program, framing: 'ndjson', faults: [], ...(!http && clientServer === 'sdk2-modern' ? { era: 'modern' as const } : {}) },
      );
    } catch (error) {
      const detail = messageOf(error);
      this.finish(suite, host.kind, errorReport(suite, `The ${host.kind} host could not start ${program}: ${detail}`), { kind: 'start-failed', host: host.kind, detail }, fallback);
      return;
    }
    const onResult = (result: CheckResult, _index: number, total: number) => {
      const state = this.getSnapshot()[suite];
      const results = state.status === 'running' ? [...state.results, result] : [result];
      this.set(suite, { status: 'running', phase: 'checking', host: host.kind, results, total, fallback });
    };
    this.set(suite, { status: 'running', phase: 'checking', host: host.kind, results: [], total: null, fallback });
    let report: SdkCheckReport;
    try {
      report = clientSource
        ? http
          ? await checkers.checkHttpClient(wire as HttpWire, this.httpDriver(clientSource), { limitMs: this.deps.limitMs, onResult })
          : clientCode === 'exercise-7'
          ? await checkers.checkEraClient(wire, this.deps.createClientDriver(clientSource, ERA_CLIENT_CONFIG), { limitMs: this.deps.limitMs, onResult, server: clientServer })
          : await checkers.checkClient(wire, this.deps.createClientDriver(clientSource), { limitMs: this.deps.limitMs, onResult, server: clientServer })
        : this.getSnapshot().serverClient === 'sdk2'
          ? await checkers.checkServerModern(wire, { limitMs: this.deps.limitMs, onResult })
          : await checkers.checkServer(wire, { limitMs: this.deps.limitMs, onResult });
    } catch (error) {
      wire.kill();
      this.finish(suite, host.kind, errorReport(suite, `The check itself failed: ${messageOf(error)}`), { kind: 'crashed', detail: messageOf(error) }, fallback);
      return;
    }
    this.finish(suite, host.kind, report, null, fallback);
  }

  private httpDriver(source: LearnerSource): LearnerHttpDriver {
    if (!this.deps.createHttpClientDriver) throw new Error('this page cannot run exercise 6 code');
    return this.deps.createHttpClientDriver(source);
  }

  private finish(suite: CheckSuite, host: HostKind | null, report: SdkCheckReport, problem: RunProblem | null, fallback: Fallback = null): void {
    this.set(suite, fallback === null ? { status: 'done', host, report, problem, seq: ++this.seq } : { status: 'done', host, report, problem, seq: ++this.seq, fallback });
  }

  private set(suite: CheckSuite, state: SuiteState): void {
    this.store.setState((current) => ({ ...current, [suite]: state }));
  }
}

/** English words for a blocker, kept in the report's message (the panel shows its own translation). */
function blockerText(blocker: Blocker): string {
  switch (blocker.kind) {
    case 'probing':
      return 'The page is still looking for a host to run servers on.';
    case 'no-host':
      return 'No host can run servers in this page.';
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
