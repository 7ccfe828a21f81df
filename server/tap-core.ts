// The tap's logic as a library: spawn one program with real pipes, report every byte that crosses
// them as tap events (see tap-protocol.ts), and obey tap commands. Two front ends share it, so both
// report exactly the same events:
//
// - tap.ts, the `tap.mjs` CLI, prints each event line on its own stdout and reads commands from its
//   stdin. The WebContainer host needs it: there the only way to a process is a pseudo-terminal.
// - bridge-session.ts runs it inside the bridge, so a page's server is the bridge's direct child and
//   each line goes straight onto the WebSocket, without a tap process and its two extra pipe hops.
//
// The program is spawned without a shell: argv[0] is the executable itself, never a command line.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  encodeTapEvent,
  looksLikeTapCommand,
  parseTapCommand,
  roundTapTime,
  type TapCommand,
  type TapEvent,
} from '../src/runtime/tap-protocol.ts';

// Each event without the fields the tap stamps on; distributes over the union so `ev` still narrows.
type WithoutStamp<E> = E extends TapEvent ? Omit<E, 'tap' | 't'> : never;
type EventBody = WithoutStamp<TapEvent>;

/** How the program ended, once nothing more will be reported. */
export type TapEnd =
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null; exitCode: number }
  | { kind: 'spawn-failed'; exitCode: 127; message: string };

export interface TapCoreOptions {
  /** The program and its arguments; argv[0] is run directly, never through a shell. */
  argv: readonly string[];
  /** Every event, in order, as one ASCII-only line (no line end) and as the object it encodes. */
  onLine(line: string, event: TapEvent): void;
  /** Called once, right after the last line (`exit`, or the `error` of a failed spawn). */
  onEnd(end: TapEnd): void;
  /** The program's environment; default: this process's. */
  env?: NodeJS.ProcessEnv;
  /** Give the program a process group of its own, so killGroup() reaches what it spawns too. */
  ownProcessGroup?: boolean;
  /** Milliseconds for the events' `t`; default: time since this tap was created. */
  now?: () => number;
  /**
   * Two more pipes for a sandboxed program (learner-sandbox.ts): fd 3 carries its heartbeat to
   * `onHeartbeat`, fd 4 carries `job` to it and is closed. Neither is reported as a tap event.
   */
  sandboxPipes?: { onHeartbeat(): void; job: Uint8Array };
}

export interface TapCore {
  /** The program's process id, once the OS gave it one. */
  readonly pid: number | undefined;
  /** True once onEnd has been called. */
  readonly ended: boolean;
  /** Bytes written to the program's stdin that it has not read yet. */
  readonly inputBacklogBytes: number;
  /**
   * Obey one command, as parseTapCommand returns it (so a write's base64 is already checked).
   * Whatever goes wrong is reported as an error event, never thrown.
   */
  run(command: TapCommand): void;
  /** One line as a terminal may deliver it: a command is obeyed, a broken one reported, noise ignored. */
  handleLine(line: string): void;
  /** Send a signal to the program. Unknown names are reported as an error event. */
  kill(signal: string): void;
  /** Signal the program's whole process group (needs ownProcessGroup); a group already gone is fine. */
  killGroup(signal: NodeJS.Signals): void;
  /** Stop, then restart, reading the program's stdout and stderr: the pipes then hold the program. */
  pauseOutput(): void;
  resumeOutput(): void;
  /** Call `listener` once the program has read everything written to its stdin so far. */
  onInputDrained(listener: () => void): void;
  /** Report a line on the program's stderr that the host itself adds (why it ended the program). */
  reportStderr(text: string): void;
}

export function startTap(options: TapCoreOptions): TapCore {
  const [program, ...programArgs] = options.argv as [string, ...string[]];
  const argv = [...options.argv];
  const createdAt = performance.now();
  const now = options.now ?? (() => performance.now() - createdAt);
  let ended = false;

  function report(body: EventBody): void {
    if (ended) return;
    // Key order `tap, ev, t, ...` keeps the lines easy to scan by eye.
    const { ev, ...fields } = body;
    const event = { tap: 1, ev, t: roundTapTime(now()), ...fields } as TapEvent;
    options.onLine(encodeTapEvent(event), event);
  }

  function end(result: TapEnd): void {
    if (ended) return;
    ended = true;
    options.onEnd(result);
  }

  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(program, programArgs, {
      stdio: options.sandboxPipes ? ['pipe', 'pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
      shell: false,
      detached: options.ownProcessGroup === true && process.platform !== 'win32',
      windowsHide: true,
      ...(options.env ? { env: options.env } : {}),
    });
  } catch (error) {
    // Reported on the next microtask, as an asynchronous spawn failure would be: callers get the
    // tap back before any callback runs.
    const message = `cannot spawn ${program}: ${(error as Error).message}`;
    queueMicrotask(() => {
      report({ ev: 'error', message });
      end({ kind: 'spawn-failed', exitCode: 127, message });
    });
    return unstartedTap(() => ended);
  }

  const pipes = options.sandboxPipes;
  if (pipes) {
    const [heartbeat, job] = [child.stdio[3], child.stdio[4]] as [NodeJS.ReadableStream, NodeJS.WritableStream];
    heartbeat.on('data', () => pipes.onHeartbeat());
    heartbeat.on('error', () => {});
    job.on('error', () => {});
    job.end(pipes.job);
  }

  let spawned = false;
  child.on('spawn', () => {
    spawned = true;
    report({ ev: 'spawn', pid: child.pid ?? -1, argv });
  });
  child.on('error', (error) => {
    const message = spawned ? error.message : `cannot spawn ${program}: ${error.message}`;
    report({ ev: 'error', message });
    // A failed spawn never emits 'close' on every Node version: end here so nobody is left waiting.
    if (!spawned) end({ kind: 'spawn-failed', exitCode: 127, message });
  });
  // Node's own base64 (the same text as tap-protocol's bytesToBase64, which pages use) is the
  // fastest there is, and every chunk on the hot path goes through it.
  child.stdout.on('data', (chunk: Buffer) => report({ ev: 's2c', b64: chunk.toString('base64') }));
  child.stderr.on('data', (chunk: Buffer) => report({ ev: 'stderr', b64: chunk.toString('base64') }));
  // Writing to a child that already exited fails with EPIPE: report it, never crash on it.
  child.stdin.on('error', (error) => report({ ev: 'error', message: `server stdin: ${error.message}` }));

  // 'close' comes after the process exited AND its stdout and stderr ended, so no chunk can
  // arrive after the exit event.
  child.on('close', (code, signal) => {
    report({ ev: 'exit', code, signal });
    end({ kind: 'exited', code, signal, exitCode: exitCodeFor(code, signal) });
  });

  function kill(signal: string): void {
    if (!isSignalName(signal)) report({ ev: 'error', message: `unknown signal ${signal}` });
    else child.kill(signal);
  }

  function run(command: TapCommand): void {
    try {
      switch (command.cmd) {
        case 'write': {
          if (child.stdin.writableEnded) {
            report({ ev: 'error', message: 'write after eof: the server stdin is closed' });
            return;
          }
          // c2s is reported once the pipe took the bytes: what the page sees is what crossed it.
          // The command was parsed, so b64 is checked base64, which Buffer decodes exactly.
          child.stdin.write(Buffer.from(command.b64, 'base64'), (error) => {
            if (!error) report({ ev: 'c2s', b64: command.b64 });
          });
          return;
        }
        case 'eof':
          child.stdin.end();
          return;
        case 'kill':
          kill(command.signal ?? 'SIGTERM');
          return;
      }
    } catch (error) {
      // Whatever one command does wrong, the tap keeps serving the next one.
      report({ ev: 'error', message: `${command.cmd} failed: ${(error as Error).message}` });
    }
  }

  return {
    get pid() {
      return child.pid;
    },
    get ended() {
      return ended;
    },
    get inputBacklogBytes() {
      return child.stdin.writableLength;
    },
    run,
    handleLine(line) {
      const command = parseTapCommand(line);
      if (command) run(command);
      else if (looksLikeTapCommand(line)) report({ ev: 'error', message: `malformed command: ${line.slice(0, 200)}` });
      // Anything else is terminal noise (echo, blank CR/LF pairs): ignored on purpose.
    },
    kill,
    killGroup(signal) {
      const pid = child.pid;
      if (pid === undefined) return;
      try {
        if (options.ownProcessGroup === true && process.platform !== 'win32') process.kill(-pid, signal);
        else child.kill(signal);
      } catch {
        // ESRCH: nothing left in the group, which is the point.
      }
    },
    pauseOutput() {
      child.stdout.pause();
      child.stderr.pause();
    },
    resumeOutput() {
      child.stdout.resume();
      child.stderr.resume();
    },
    reportStderr(text) {
      report({ ev: 'stderr', b64: Buffer.from(text, 'utf8').toString('base64') });
    },
    onInputDrained(listener) {
      const stdin = child.stdin;
      if (stdin.writableLength === 0 || stdin.destroyed) {
        queueMicrotask(listener);
        return;
      }
      // A pipe that breaks (the program closed its stdin) never drains; it closes instead.
      const done = (): void => {
        stdin.off('drain', done);
        stdin.off('close', done);
        listener();
      };
      stdin.on('drain', done);
      stdin.on('close', done);
    },
  };
}

// The tap of a program that could not even be spawned: every request is accepted, none does anything.
function unstartedTap(isEnded: () => boolean): TapCore {
  return {
    pid: undefined,
    get ended() {
      return isEnded();
    },
    inputBacklogBytes: 0,
    run: () => {},
    handleLine: () => {},
    kill: () => {},
    killGroup: () => {},
    pauseOutput: () => {},
    resumeOutput: () => {},
    onInputDrained: (listener) => queueMicrotask(listener),
    reportStderr: () => {},
  };
}

/** The exit code a shell would give: the child's own code, or 128 + the signal's number. */
export function exitCodeFor(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const number = signal ? osConstants.signals[signal] : undefined;
  return number ? 128 + number : 1;
}

function isSignalName(name: string): name is NodeJS.Signals {
  return Object.hasOwn(osConstants.signals, name);
}
