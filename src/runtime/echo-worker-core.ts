// The echo server and a stand-in for the tap, inside a Web Worker: no Node, no network, so the
// page works from a static host offline. The server is the same session the Node echo server
// runs; around it, this core reports exactly the tap events the real tap would (spawn, c2s, one
// s2c per write the server made, stderr, exit), so the page cannot tell the hosts apart by the
// events, only by the host name.

import { createServerSession, type ServerSession, type ServerSessionOptions } from '../protocol/server-session.ts';
import { sessionServerForEra } from '../protocol/era/session.ts';
import { ECHO_ERAS, type EchoEra } from './echo-server-args.ts';
import type { LearnerServerSource, ProgramName, ProgramSpec } from './host.ts';
import { LEARNER_SERVER_LOAD_EXIT_CODE, LEARNER_SERVER_LOG_PREFIX, LOAD_FAILURE_LEAD } from '../sandbox/learner-server-constants.ts';
import type { Outcome } from '../sandbox/learner-server-core.ts';
import { checkLearnerServerSource, checkSessionOptions } from './learner-server-job.ts';
import { base64ToBytes, bytesToBase64, roundTapTime, type TapCommand, type TapEvent } from './tap-protocol.ts';

/** What the page posts to the worker: one start, then tap commands (as objects, not lines). */
export type PageToWorker = { type: 'start'; spec: ProgramSpec } | TapCommand;
/** What the worker posts back: tap events, exactly the shape the real tap prints. */
export type WorkerToPage = TapEvent;

export interface EchoWorkerCoreDeps {
  post(event: TapEvent): void;
  /** Milliseconds on the worker's clock; default performance.now(), like the tap's. */
  now?: () => number;
  /** For the split-writes fault; default Math.random. */
  random?: () => number;
  /**
   * Given in the learner-server worker only: this core then runs the learner's exercise-4 server
   * (and nothing else) inside the same session, loaded by this function.
   */
  startLearnerSession?: (source: LearnerServerSource, options: Omit<ServerSessionOptions, 'createServer'>) => Outcome<ServerSession>;
}

export interface EchoWorkerCore {
  /** Take one message from the page. Anything malformed gets an error event, never a throw. */
  handle(message: unknown): void;
}

type CoreState = 'waiting' | 'running' | 'finishing' | 'exited';
type WithoutStamp<E> = E extends TapEvent ? Omit<E, 'tap' | 't'> : never;

/** A worker runs one kind of program; the host picks the worker by program, so this is a host bug. */
export function wrongWorkerRefusal(asked: string, runs: ProgramName): string {
  return `cannot spawn ${asked.slice(0, 40)}: this in-browser worker runs only ${runs}`;
}

export function createEchoWorkerCore(deps: EchoWorkerCoreDeps): EchoWorkerCore {
  const now = deps.now ?? (() => performance.now());
  let state: CoreState = 'waiting';
  let session: ServerSession | null = null;

  function report(body: WithoutStamp<TapEvent>): void {
    deps.post({ tap: 1, t: roundTapTime(now()), ...body } as TapEvent);
  }

  // The Node programs prefix their stderr lines the same way.
  const prefix = deps.startLearnerSession ? LEARNER_SERVER_LOG_PREFIX : '[echo-server]';
  function log(line: string): void {
    if (state === 'exited') return;
    report({ ev: 'stderr', b64: bytesToBase64(new TextEncoder().encode(`${prefix} ${line}\n`)) });
  }

  function exit(code: number | null, signal: string | null): void {
    if (state === 'exited') return;
    state = 'exited';
    session = null;
    report({ ev: 'exit', code, signal });
  }

  function start(spec: ProgramSpec): void {
    if (state !== 'waiting') {
      report({ ev: 'error', message: 'already started: one worker runs one server' });
      return;
    }
    const runs: ProgramName = deps.startLearnerSession ? 'learner-server' : 'echo-server';
    if (spec.program !== runs) {
      report({ ev: 'error', message: wrongWorkerRefusal(String(spec.program), runs) });
      return;
    }
    const checked = checkSessionOptions(spec.framing, spec.faults);
    if (!checked.ok) {
      report({ ev: 'error', message: `cannot start ${runs}: ${checked.reason}` });
      return;
    }
    const { framing, faults } = checked.value;
    const era: EchoEra = spec.era ?? 'dual';
    if (!(ECHO_ERAS as readonly string[]).includes(era) || (era !== 'dual' && deps.startLearnerSession)) {
      report({ ev: 'error', message: `cannot start ${runs}: era goes only with echo-server, one of ${ECHO_ERAS.join(', ')}` });
      return;
    }
    const options: Omit<ServerSessionOptions, 'createServer'> = {
      framing,
      faults,
      // One s2c event per write, as the tap reports one per read of a pipe that here never merges:
      // split-writes pieces arrive exactly as the server cut them.
      write: (bytes) => {
        if (state !== 'exited') report({ ev: 's2c', b64: bytesToBase64(bytes) });
      },
      log,
      random: deps.random,
    };
    // The same argv the bridge would spawn (bridge-messages.ts): --era only when not the default.
    const flags = [`--framing=${framing}`, ...faults.map((fault) => `--fault=${fault}`), ...(era === 'dual' ? [] : [`--era=${era}`])];
    // Worded as server/echo-server.ts logs it.
    const settings = `framing ${framing}, ${deps.startLearnerSession ? '' : `era ${era}, `}faults: ${faults.length > 0 ? faults.join(', ') : 'none'}`;
    if (!deps.startLearnerSession) {
      state = 'running';
      report({ ev: 'spawn', pid: 0, argv: ['node', 'echo-server.mjs', ...flags] });
      // Dual-era by default, like server/echo-server.ts: the same module on every host.
      session = createServerSession({ ...options, createServer: sessionServerForEra(era) });
      log(`pid 0 (in-browser worker), ${settings}`);
      return;
    }
    const source = checkLearnerServerSource(spec.learnerServer);
    if (!source.ok) {
      report({ ev: 'error', message: `cannot start learner-server: ${source.reason}` });
      return;
    }
    // Spawned first, as the Node runner is: loading the learner's code is the program's own work,
    // and a load failure is its stderr line and exit code, not a failure to start.
    state = 'running';
    report({ ev: 'spawn', pid: 0, argv: ['node', 'learner-server.mjs', source.value.file] });
    const started = deps.startLearnerSession(source.value, options);
    if (!started.ok) {
      log(`${LOAD_FAILURE_LEAD}${started.message}`);
      exit(LEARNER_SERVER_LOAD_EXIT_CODE, null);
      return;
    }
    session = started.value;
    log(`pid 0 (in-browser worker), your ${source.value.file}, ${settings}`);
  }

  function run(command: TapCommand): void {
    switch (command.cmd) {
      case 'write': {
        if (state === 'finishing') {
          report({ ev: 'error', message: 'write after eof: the server stdin is closed' });
          return;
        }
        if (state !== 'running' || !session) return;
        const bytes = base64ToBytes(command.b64);
        // c2s first: the real tap reports the write once it is in the pipe, before the server reads it.
        report({ ev: 'c2s', b64: command.b64 });
        session.push(bytes);
        return;
      }
      case 'eof': {
        if (state !== 'running' || !session) return;
        state = 'finishing';
        log('stdin closed; finishing in-flight requests');
        void session.finish().then(() => {
          log('done, exiting');
          exit(0, null);
        });
        return;
      }
      case 'kill':
        if (state === 'running' || state === 'finishing') exit(null, command.signal ?? 'SIGTERM');
        return;
    }
  }

  return {
    handle(message) {
      const parsed = readMessage(message);
      if (parsed === null) {
        report({ ev: 'error', message: `malformed command: ${preview(message)}` });
        return;
      }
      if ('type' in parsed) start(parsed.spec);
      else run(parsed);
    },
  };
}

/** Structured clone hands us whatever the page posted: check the shape before trusting it. */
function readMessage(message: unknown): PageToWorker | null {
  if (typeof message !== 'object' || message === null) return null;
  const value = message as Record<string, unknown>;
  if (value.type === 'start') {
    const spec = value.spec as Record<string, unknown> | null | undefined;
    if (typeof spec !== 'object' || spec === null) return null;
    if (typeof spec.program !== 'string' || typeof spec.framing !== 'string' || !Array.isArray(spec.faults)) return null;
    if (!spec.faults.every((fault) => typeof fault === 'string')) return null;
    if (spec.era !== undefined && typeof spec.era !== 'string') return null;
    // learnerServer's fields are checked by start(), with the bridge's own checker.
    return { type: 'start', spec: spec as unknown as ProgramSpec };
  }
  switch (value.cmd) {
    case 'write':
      return typeof value.b64 === 'string' && isBase64(value.b64) ? { cmd: 'write', b64: value.b64 } : null;
    case 'eof':
      return { cmd: 'eof' };
    case 'kill':
      if (value.signal === undefined) return { cmd: 'kill' };
      return typeof value.signal === 'string' && /^SIG[A-Z0-9]+$/.test(value.signal) ? { cmd: 'kill', signal: value.signal } : null;
    default:
      return null;
  }
}

function isBase64(text: string): boolean {
  return text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);
}

function preview(message: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(message) ?? String(message);
  } catch {
    text = String(message);
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
