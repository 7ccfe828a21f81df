// Everything the live panel shows, as one immutable snapshot, and every action it offers. The
// store knows hosts, wires and the reference client; components only render its snapshot.

import type { FaultName } from '../../protocol/faults.ts';
import type { FramingName } from '../../protocol/framing/types.ts';
import { getFraming } from '../../protocol/framing/index.ts';
import type { Host, HostAvailability, HostKind, ProgramSpec, Wire } from '../../runtime/host.ts';
import type { TapEvent } from '../../runtime/tap-protocol.ts';
import type { EchoEra } from '../../runtime/echo-server-args.ts';
import { withConnectivity } from '../../runtime/host-selection.ts';
import { createStore, ExternalStore, type Store } from '../store/create-store.ts';
import { appendToLog, DEFAULT_LOG_CAP, EMPTY_LOG, TapEventDecoder, type MessageLog } from './message-log.ts';
import { IDLE_HANDSHAKE, runHandshake, type HandshakeState } from './handshake.ts';

export type HostSelectionState =
  | { status: 'probing' }
  | { status: 'chosen'; kind: HostKind; availability: readonly HostAvailability[] }
  | { status: 'none'; availability: readonly HostAvailability[] };

export interface HostState {
  selection: HostSelectionState;
  /** The host named by ?host=, if the name was valid. */
  forced: HostKind | null;
  /** The ?host= value, when it named no host (so the panel can say it was ignored). */
  invalidForced: string | null;
}

export type ServerStatus =
  | { status: 'stopped' }
  | { status: 'starting'; host: HostKind }
  | { status: 'running'; host: HostKind; pid: number | null }
  | { status: 'exited'; code: number | null; signal: string | null }
  | { status: 'failed'; reason: string };

export interface LiveSessionState {
  host: HostState;
  server: ServerStatus;
  framing: FramingName;
  faults: readonly FaultName[];
  /** Which protocol era the echo server speaks (`--era`); dual unless the era stepper asks otherwise. */
  era: EchoEra;
  log: MessageLog;
  handshake: HandshakeState;
}

/**
 * The tap's events of the latest server run, exactly as they arrived: what "Save as trace" writes.
 * Kept apart from the log, which decodes, caps and may be cleared.
 */
export interface RunRecording {
  /** Page clock (ISO 8601) when the run started; the events' `t` count from the tap's own start. */
  started: string;
  host: HostKind;
  framing: FramingName;
  events: TapEvent[];
  /** Events left out beyond MAX_RECORDED_EVENTS. */
  omitted: number;
}

/** A run longer than this keeps its first events only (a trace of it says how many were left out). */
export const MAX_RECORDED_EVENTS = 200_000;

/** What host selection hands back: the host to use (if any) and what was learnt about each. */
export interface HostChoice {
  host: Host | null;
  availability: readonly HostAvailability[];
}

export interface LiveSessionOptions {
  selectHost(): Promise<HostChoice>;
  /** Remember that the learner chose the WebContainer, so the next selection may probe it. */
  chooseWebContainer?(): void;
  forced?: HostKind | null;
  invalidForced?: string | null;
  logCap?: number;
  /** Per-request timeout of the handshake's client: short, so a broken server shows up quickly. */
  requestTimeoutMs?: number;
}

export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 8000;

export class LiveSessionStore extends ExternalStore<LiveSessionState> {
  protected readonly store: Store<LiveSessionState>;
  private host: Host | null = null;
  private wire: Wire | null = null;
  /** Bumped by every start, stop and probe, so late events from an older run are ignored. */
  private run = 0;
  private stopRequested = false;
  private wireClosed: Promise<void> = Promise.resolve();
  private handshakeUsedWire = false;
  private handshakeBusy = false;
  private probing = false;
  private readonly logCap: number;
  private recording: RunRecording | null = null;

  constructor(private readonly options: LiveSessionOptions) {
    super();
    this.logCap = options.logCap ?? DEFAULT_LOG_CAP;
    this.store = createStore<LiveSessionState>({
      host: { selection: { status: 'probing' }, forced: options.forced ?? null, invalidForced: options.invalidForced ?? null },
      server: { status: 'stopped' },
      framing: 'content-length',
      faults: [],
      era: 'dual',
      log: EMPTY_LOG,
      handshake: IDLE_HANDSHAKE,
    });
  }

  // ---- hosts ----

  /** Probe the hosts (again) and pick one. A running server is stopped first: it lives on the old host. */
  async probeHosts(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      await this.stopServer();
      await this.chooseHost();
    } finally {
      this.probing = false;
    }
  }

  /** The learner asks for the WebContainer (which loads from StackBlitz): allow it, then probe again. */
  async chooseWebContainer(): Promise<void> {
    this.options.chooseWebContainer?.();
    await this.probeHosts();
  }

  private async chooseHost(): Promise<void> {
    this.host = null;
    // The previous server (and whatever ended it) belonged to the old host: start the new one clean.
    this.update({ host: { ...this.getSnapshot().host, selection: { status: 'probing' } }, server: { status: 'stopped' } });
    let choice: HostChoice;
    try {
      choice = await this.options.selectHost();
    } catch (error) {
      choice = { host: null, availability: [] };
      this.update({ server: { status: 'failed', reason: messageOf(error) } });
    }
    this.host = choice.host;
    const selection: HostSelectionState = choice.host
      ? { status: 'chosen', kind: choice.host.kind, availability: choice.availability }
      : { status: 'none', availability: choice.availability };
    this.update({ host: { ...this.getSnapshot().host, selection } });
  }

  /**
   * The browser's word on the network changed (its `online`/`offline` events): the WebContainer
   * row that was skipped unprobed says so at once (withConnectivity); nothing is probed again.
   */
  connectivityChanged(offline: boolean): void {
    const { host } = this.getSnapshot();
    const selection = host.selection;
    if (selection.status === 'probing') return; // the probe's result is checked against the network when it comes
    this.update({ host: { ...host, selection: { ...selection, availability: withConnectivity(selection.availability, offline) } } });
  }

  /** The chosen host, for features that start programs of their own on it (the SDK checks). */
  chosenHost(): Host | null {
    return this.host;
  }

  // ---- settings (take effect at the next start) ----

  setFraming(framing: FramingName): void {
    if (this.isServerBusy()) return;
    this.update({ framing });
  }

  setFault(fault: FaultName, on: boolean): void {
    if (this.isServerBusy()) return;
    const others = this.getSnapshot().faults.filter((name) => name !== fault);
    this.update({ faults: on ? [...others, fault] : others });
  }

  setEra(era: EchoEra): void {
    if (this.isServerBusy()) return;
    this.update({ era });
  }

  clearLog(): void {
    this.update({ log: EMPTY_LOG });
  }

  // ---- the server ----

  isServerBusy(): boolean {
    const status = this.getSnapshot().server.status;
    return status === 'starting' || status === 'running';
  }

  /** Start the echo server on the chosen host. Resolves once it runs (or failed to). */
  async startServer(): Promise<Wire | null> {
    const host = this.host;
    if (host === null || this.isServerBusy()) return null;
    const run = ++this.run;
    const { framing, faults, era } = this.getSnapshot();
    this.stopRequested = false;
    this.handshakeUsedWire = false;
    this.update({ server: { status: 'starting', host: host.kind }, handshake: IDLE_HANDSHAKE });

    let wire: Wire;
    try {
      wire = await host.start({ program: 'echo-server', framing, faults, ...(era === 'dual' ? {} : { era }) });
    } catch (error) {
      if (run === this.run) this.update({ server: { status: 'failed', reason: messageOf(error) } });
      return null;
    }
    if (run !== this.run) {
      wire.kill();
      return null;
    }
    this.wire = wire;
    this.recording = { started: new Date().toISOString(), host: host.kind, framing, events: [], omitted: 0 };
    const nextSeq = (this.getSnapshot().log.entries.at(-1)?.seq ?? -1) + 1;
    this.attach(run, wire, new TapEventDecoder(getFraming(framing), nextSeq), this.recording);
    if (this.getSnapshot().server.status === 'starting') this.update({ server: { status: 'running', host: host.kind, pid: null } });
    return this.getSnapshot().server.status === 'running' ? wire : null;
  }

  /**
   * Start another shipped program on the chosen host, beside the live echo server (the HTTP
   * stepper's mcp-http). The caller owns the wire and kills it.
   */
  async startProgram(spec: ProgramSpec): Promise<Wire> {
    if (this.host === null) throw new Error('no host can run the server here (the host is still being chosen, or none is available)');
    return this.host.start(spec);
  }

  /** Kill the server; resolves when its wire has closed. */
  async stopServer(): Promise<void> {
    const wire = this.wire;
    if (wire === null) {
      if (this.getSnapshot().server.status === 'starting') {
        this.run++;
        this.update({ server: { status: 'stopped' } });
      }
      return;
    }
    this.stopRequested = true;
    wire.kill();
    await this.wireClosed;
  }

  /** The latest run's events (the run may still be going: a copy of what arrived so far). */
  lastRun(): RunRecording | null {
    return this.recording === null ? null : { ...this.recording, events: [...this.recording.events] };
  }

  private attach(run: number, wire: Wire, decoder: TapEventDecoder, recording: RunRecording): void {
    let exitSeen = false;
    const current = () => run === this.run;
    wire.onTapEvent((event) => {
      if (!current()) return;
      if (recording.events.length < MAX_RECORDED_EVENTS) recording.events.push(event);
      else recording.omitted++;
      this.appendLog(decoder.decode(event));
      if (event.ev === 'spawn') this.update({ server: { status: 'running', host: wire.host, pid: event.pid } });
      if (event.ev === 'exit') {
        exitSeen = true;
        this.update({ server: this.stopRequested ? { status: 'stopped' } : { status: 'exited', code: event.code, signal: event.signal } });
      }
    });
    this.wireClosed = new Promise((resolve) => {
      wire.onClose((reason) => {
        resolve();
        if (!current()) return;
        this.wire = null;
        if (!exitSeen) {
          this.appendLog(decoder.closed(reason));
          this.update({ server: this.stopRequested ? { status: 'stopped' } : { status: 'failed', reason } });
        }
      });
    });
  }

  private appendLog(entry: Parameters<typeof appendToLog>[1]): void {
    // Batched: split-writes brings hundreds of entries a second, and the log, the diagram and the
    // panel around them rendered once per entry (a failure card's run was mostly that).
    this.store.setState((state) => ({ ...state, log: appendToLog(state.log, entry, this.logCap) }), { batched: true });
  }

  // ---- the handshake ----

  /**
   * initialize → notifications/initialized → tools/list → tools/call echo, with the reference client.
   * A server that already shook hands (or is not running) is (re)started first: a handshake is once per session.
   */
  async runHandshake(): Promise<void> {
    if (this.handshakeBusy || this.host === null) return;
    this.handshakeBusy = true;
    try {
      this.update({ handshake: { ...IDLE_HANDSHAKE, step: 'starting' } });
      if (this.wire === null || this.handshakeUsedWire) {
        await this.stopServer();
        await this.startServer();
      }
      const wire = this.wire;
      if (wire === null) {
        const server = this.getSnapshot().server;
        const reason = server.status === 'failed' ? server.reason : 'the server did not start';
        this.update({ handshake: { ...IDLE_HANDSHAKE, step: 'failed', error: reason } });
        return;
      }
      this.handshakeUsedWire = true;
      const run = this.run;
      await runHandshake(wire, this.getSnapshot().framing, this.options.requestTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS, (handshake) => {
        if (run === this.run) this.update({ handshake });
      });
    } finally {
      this.handshakeBusy = false;
    }
  }

  private update(patch: Partial<LiveSessionState>): void {
    this.store.setState((state) => ({ ...state, ...patch }));
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
