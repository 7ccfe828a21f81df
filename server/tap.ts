// The tap CLI: spawns one program with real pipes and reports every byte that crosses them, one
// ASCII-only JSON line per event on its own stdout (see tap-protocol.ts). It takes commands, one
// JSON line each, on its own stdin. The page never talks to the server directly: the tap is the
// wiretap between them, so what the page shows is what really crossed the pipes.
//
//   node tap.mjs [--relay-http] -- <program> [args...]
//
// --relay-http: the program is an HTTP server (mcp-http) that prints `http://127.0.0.1:PORT/mcp`;
// the tap also relays TCP connections to that port (relay-tap.ts), inside the WebContainer too.
//
// The tap itself lives in tap-core.ts, which the local bridge also runs in-process; this file is
// only the stdio around it, for hosts that can reach a process through nothing else (a
// WebContainer's pseudo-terminal).

import { performance } from 'node:perf_hooks';
import { TapLineSplitter, encodeTapEvent, roundTapTime } from '../src/runtime/tap-protocol.ts';
import { startTap, type TapCore } from './tap-core.ts';
import { startRelayTap } from './relay-tap.ts';

const USAGE = 'usage: node tap.mjs [--relay-http] -- <program> [args...]\n';

function printLine(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Everything after `--` is the program and its arguments; nothing else is accepted. */
function parseTapArgs(args: readonly string[]): { argv: string[]; relay: boolean } | null {
  const relay = args[0] === '--relay-http';
  const separator = args.indexOf('--');
  if (separator !== (relay ? 1 : 0)) return null;
  const argv = args.slice(separator + 1);
  return argv.length > 0 ? { argv, relay } : null;
}

function exitAfterFlush(code: number): void {
  // A pipe or terminal may still hold our last lines; exiting from the write callback keeps them.
  process.stdout.write('', () => process.exit(code));
}

function runTap(argv: string[], relay: boolean): void {
  const tap: TapCore = (relay ? startRelayTap : startTap)({
    argv,
    onLine: printLine,
    onEnd: (end) => exitAfterFlush(end.exitCode),
    // `t` counts from the start of this process, as it always has for the CLI.
    now: () => performance.now(),
  });

  const lines = new TapLineSplitter();
  const decoder = new TextDecoder();

  // In a terminal, raw mode stops the line discipline from echoing our input, capping line length
  // and turning Ctrl-C into a signal; we see the bytes as sent instead.
  const rawTerminal = process.stdin.isTTY === true;
  if (rawTerminal) process.stdin.setRawMode(true);
  process.stdin.on('data', (chunk: Buffer) => {
    // In raw mode Ctrl-C arrives as a byte: honour it the way a terminal would.
    if (rawTerminal && chunk.includes(0x03)) tap.kill('SIGINT');
    for (const line of lines.push(decoder.decode(chunk, { stream: true }))) tap.handleLine(line);
  });
  process.stdin.on('end', () => {
    for (const line of lines.push(decoder.decode())) tap.handleLine(line);
    for (const line of lines.flush()) tap.handleLine(line);
    // Our own stdin closing means nobody can talk to the server any more: pass the EOF on.
    tap.run({ cmd: 'eof' });
  });
  process.stdin.on('error', () => tap.run({ cmd: 'eof' }));

  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    // Pass the signal on and let the exit event end the tap.
    process.on(signal, () => tap.kill(signal));
  }
  // The reader of our stdout went away: nobody can see the server any more, so stop it.
  process.stdout.on('error', () => {
    tap.kill('SIGTERM');
    process.exit(1);
  });
}

function main(): void {
  const parsed = parseTapArgs(process.argv.slice(2));
  if (!parsed) {
    process.stderr.write(USAGE);
    printLine(encodeTapEvent({ tap: 1, ev: 'error', t: roundTapTime(performance.now()), message: `malformed command line; ${USAGE.trim()}` }));
    exitAfterFlush(2);
    return;
  }
  runTap(parsed.argv, parsed.relay);
}

main();
