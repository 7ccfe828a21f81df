// The stepper's vocabulary: what a run is configured with, its closed status union and the
// snapshot views render. Apart from the store so step execution and views can import the types
// without the machine.

import type { FaultName } from '../../protocol/faults.ts';
import type { FramingName } from '../../protocol/framing/types.ts';
import type { EchoEra } from '../../runtime/echo-server-args.ts';
import type { HostKind, Wire } from '../../runtime/host.ts';
import type { DriverKind } from '../../sandbox/client-driver.ts';
import type { PlanStep } from './step-plan.ts';
import type { StepRecord } from './stepper-records.ts';

export interface ServerSettings {
  framing: FramingName;
  faults: readonly FaultName[];
  /** The echo server's era (`--era`); absent means dual-era, the default. */
  era?: EchoEra;
}

/**
 * A run driven by the dual-era client (src/protocol/era) instead of exercise 3's McpClient:
 * pinned to 2026-07-28, or probing with server/discover and falling back to the handshake.
 */
export interface EraClientConfig {
  mode: 'modern' | 'probe';
  /** Modern versions offered, preferred first; default: the ones the project speaks. */
  versions?: readonly string[];
}

/** How the stepper gets a live server: in the app, the live session's start and stop. */
export interface ServerPort {
  /** The live panel's framing and faults right now. */
  settings(): ServerSettings;
  /** Stop whatever runs, apply `settings`, start the echo server. */
  start(settings: ServerSettings): Promise<{ ok: true; wire: Wire } | { ok: false; reason: string }>;
}

export interface StepperTimeouts {
  /** How long a send step waits for the client's frame to show up on stdin. */
  sendMs: number;
  /** How long a receive step waits for the server's response. */
  receiveMs: number;
  closeMs: number;
  exitMs: number;
}

export const DEFAULT_TIMEOUTS: StepperTimeouts = { sendMs: 3000, receiveMs: 15_000, closeMs: 3000, exitMs: 5000 };

/** What one run does: the plan, who drives, and (for the lab) the server's settings. */
export interface RunConfig {
  plan: readonly PlanStep[];
  /** null for the handshake; else the failure scenario it runs, e.g. 'id-pairing'. */
  scenario: string | null;
  client: DriverKind;
  register: DriverKind;
  /** null: whatever the live panel has chosen. */
  settings: ServerSettings | null;
  timeouts?: Partial<StepperTimeouts>;
  /** Set: the dual-era client drives (the era switch); absent: `client` says who drives. */
  eraClient?: EraClientConfig;
  /** The server's era for this run, over whatever `settings` says; absent: dual-era. */
  serverEra?: EchoEra;
}

export type WaitingFor = 'server' | 'bytes-out' | 'response' | 'eof' | 'exit' | 'registry';

export type StepperStatus =
  | { status: 'idle' }
  | { status: 'stepping'; index: number; waitingFor: WaitingFor; auto: boolean }
  | { status: 'ready' }
  | { status: 'done' }
  | { status: 'failed'; reason: string };

export interface StepperState {
  status: StepperStatus;
  config: RunConfig;
  records: readonly StepRecord[];
  /** How many records are shown: stepping back lowers it, stepping forward over the log raises it. */
  cursor: number;
  /** The running server's settings and host; null before the first step of a run. */
  server: (ServerSettings & { host: HostKind }) | null;
  /** Server bytes in the pipe that the client has not read yet. */
  heldBytes: number;
  /** Bumped whenever the records are thrown away, so views can drop what they derived. */
  runId: number;
}
