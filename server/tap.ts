// The tap: spawns one program with real pipes and reports every byte that crosses them, one
// ASCII-only JSON line per event on its own stdout (see tap-protocol.ts). It takes commands, one
// JSON line each, on its own stdin. The page never talks to the server directly: the tap is the
// wiretap between them, so what the page shows is what really crossed the pipes.
//
//   node tap.mjs -- <program> [args...]

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { performance } from 'node:perf_hooks';
import {
  TapLineSplitter,
  base64ToBytes,
  bytesToBase64,
  encodeTapEvent,
  looksLikeTapCommand,
  parseTapCommand,
  roundTapTime,
  type TapCommand,
  type TapEvent,
} from '../src/runtime/tap-protocol.ts';

const USAGE = 'usage: node tap.mjs -- <program> [args...]\n';

// Each event without the fields report() fills in; distributes over the union so `ev` still narrows.
type WithoutStamp<E> = E extends TapEvent ? Omit<E, 'tap' | 't'> : never;
type EventBody = WithoutStamp<TapEvent>;

function report(body: EventBody): void {
  // Key order `tap, ev, t, ...` keeps the lines easy to scan by eye.
  const { ev, ...fields } = body;
  const event = { tap: 1, ev, t: roundTapTime(performance.now()), ...fields } as TapEvent;
  process.stdout.write(`${encodeTapEvent(event)}\n`);
}

/** Everything after `--` is the program and its arguments; nothing else is accepted. */
function parseTapArgs(args: readonly string[]): string[] | null {
  const separator = args.indexOf('--');
  if (separator !== 0) return null;
  const argv = args.slice(separator + 1);
  return argv.length > 0 ? argv : null;
}

/** The exit code a shell would give: the child's own code, or 128 + the signal's number. */
function exitCodeFor(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const number = signal ? osConstants.signals[signal] : undefined;
  return number ? 128 + number : 1;
}

function isSignalName(name: string): name is NodeJS.Signals {
  return Object.hasOwn(osConstants.signals, name);
}

function exitAfterFlush(code: number): void {
  // A pipe or terminal may still hold our last lines; exiting from the write callback keeps them.
  process.stdout.write('', () => process.exit(code));
}

function runTap(argv: string[]): void {
  const [program, ...programArgs] = argv as [string, ...string[]];
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(program, programArgs, { stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    report({ ev: 'error', message: `cannot spawn ${program}: ${(error as Error).message}` });
    exitAfterFlush(127);
    return;
  }

  let spawned = false;
  child.on('spawn', () => {
    spawned = true;
    report({ ev: 'spawn', pid: child.pid ?? -1, argv });
  });
  child.on('error', (error) => {
    report({ ev: 'error', message: spawned ? error.message : `cannot spawn ${program}: ${error.message}` });
    // A failed spawn never emits 'close' on every Node version: end here so the page is not left waiting.
    if (!spawned) exitAfterFlush(127);
  });
  child.stdout.on('data', (chunk: Buffer) => report({ ev: 's2c', b64: bytesToBase64(chunk) }));
  child.stderr.on('data', (chunk: Buffer) => report({ ev: 'stderr', b64: bytesToBase64(chunk) }));
  // Writing to a child that already exited fails with EPIPE: report it, never crash on it.
  child.stdin.on('error', (error) => report({ ev: 'error', message: `server stdin: ${error.message}` }));

  // 'close' comes after the process exited AND its stdout and stderr ended, so no chunk can
  // arrive after the exit event.
  child.on('close', (code, signal) => {
    report({ ev: 'exit', code, signal });
    exitAfterFlush(exitCodeFor(code, signal));
  });

  const run = (command: TapCommand): void => {
    switch (command.cmd) {
      case 'write': {
        const bytes = base64ToBytes(command.b64);
        if (child.stdin.writableEnded) {
          report({ ev: 'error', message: 'write after eof: the server stdin is closed' });
          return;
        }
        child.stdin.write(bytes, (error) => {
          if (!error) report({ ev: 'c2s', b64: command.b64 });
        });
        return;
      }
      case 'eof':
        child.stdin.end();
        return;
      case 'kill': {
        const signal = command.signal ?? 'SIGTERM';
        if (!isSignalName(signal)) report({ ev: 'error', message: `unknown signal ${signal}` });
        else child.kill(signal);
        return;
      }
    }
  };

  const lines = new TapLineSplitter();
  const decoder = new TextDecoder();
  const handleLine = (line: string): void => {
    const command = parseTapCommand(line);
    if (!command) {
      if (looksLikeTapCommand(line)) report({ ev: 'error', message: `malformed command: ${line.slice(0, 200)}` });
      // Anything else is terminal noise (echo, blank CR/LF pairs): ignored on purpose.
      return;
    }
    try {
      run(command);
    } catch (error) {
      // Whatever one command does wrong, the tap keeps serving the next one.
      report({ ev: 'error', message: `${command.cmd} failed: ${(error as Error).message}` });
    }
  };

  // In a terminal, raw mode stops the line discipline from echoing our input, capping line length
  // and turning Ctrl-C into a signal; we see the bytes as sent instead.
  const rawTerminal = process.stdin.isTTY === true;
  if (rawTerminal) process.stdin.setRawMode(true);
  process.stdin.on('data', (chunk: Buffer) => {
    // In raw mode Ctrl-C arrives as a byte: honour it the way a terminal would.
    if (rawTerminal && chunk.includes(0x03)) child.kill('SIGINT');
    for (const line of lines.push(decoder.decode(chunk, { stream: true }))) handleLine(line);
  });
  process.stdin.on('end', () => {
    for (const line of lines.push(decoder.decode())) handleLine(line);
    for (const line of lines.flush()) handleLine(line);
    // Our own stdin closing means nobody can talk to the server any more: pass the EOF on.
    child.stdin.end();
  });
  process.stdin.on('error', () => child.stdin.end());

  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    // Pass the signal on and let 'close' report the exit and end the tap.
    process.on(signal, () => child.kill(signal));
  }
  // The reader of our stdout went away: nobody can see the server any more, so stop it.
  process.stdout.on('error', () => {
    child.kill('SIGTERM');
    process.exit(1);
  });
}

function main(): void {
  const argv = parseTapArgs(process.argv.slice(2));
  if (!argv) {
    process.stderr.write(USAGE);
    report({ ev: 'error', message: `malformed command line; ${USAGE.trim()}` });
    exitAfterFlush(2);
    return;
  }
  runTap(argv);
}

main();
