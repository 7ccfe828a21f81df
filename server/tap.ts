// The tap CLI: spawns one program with real pipes and reports every byte that crosses them, one
// ASCII-only JSON line per event on its own stdout (see tap-protocol.ts). It takes commands, one
// JSON line each, on its own stdin. The page never talks to the server directly: the tap is the
// wiretap between them, so what the page shows is what really crossed the pipes.
//
//   node tap.mjs -- <program> [args...]
//
// With --record=FILE it also writes a trace file (docs/trace-format), and it can sit between a
// client and a server (--between) or relay an HTTP server's TCP connections (--listen): see
// tap-args.ts for the command line and tap-record.ts, tap-between.ts, tap-http-relay.ts; with
// --transparent it is an invisible stdio server instead (tap-transparent.ts).
//
// The tap itself lives in tap-core.ts, which the local bridge also runs in-process; this file is
// only the stdio around it, for hosts that can reach a process through nothing else (a
// WebContainer's pseudo-terminal).

import { performance } from 'node:perf_hooks';
import { TapLineSplitter, encodeTapEvent, roundTapTime } from '../src/runtime/tap-protocol.ts';
import { TAP_USAGE, parseTapArgs } from './tap-args.ts';
import { runBetween } from './tap-between.ts';
import { startTap, type TapCore } from './tap-core.ts';
import { startRelayTap } from './relay-tap.ts';
import { runRelay } from './tap-http-relay.ts';
import { runTransparent } from './tap-transparent.ts';
import { startStdioRecording, summaryLine, type StdioRecording } from './tap-record.ts';

function printLine(line: string): void {
  process.stdout.write(`${line}\n`);
}

function exitAfterFlush(code: number): void {
  // A pipe or terminal may still hold our last lines; exiting from the write callback keeps them.
  process.stdout.write('', () => process.exit(code));
}

function runTap(argv: string[], recording?: StdioRecording, relay = false): void {
  // --relay-http: mcp-http also gets its TCP connections relayed (relay-tap.ts), as on the bridge.
  const tap: TapCore = (relay ? startRelayTap : startTap)({
    argv,
    onLine: (line, event) => {
      recording?.onEvent(event, line);
      printLine(line);
    },
    onEnd: (end) => {
      if (recording) {
        recording.finish();
        process.stderr.write(summaryLine(recording.file));
      }
      exitAfterFlush(end.exitCode);
    },
    // `t` counts from the start of this process, as it always has for the CLI; a recording counts
    // from its header's `started`, so the lines printed and the lines recorded are the same.
    now: recording ? recording.now : () => performance.now(),
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
    // Pass the signal on and let the exit event end the tap; what is recorded so far is kept now.
    process.on(signal, () => {
      recording?.file.flush();
      tap.kill(signal);
    });
  }
  // The reader of our stdout went away: nobody can see the server any more, so stop it.
  process.stdout.on('error', () => {
    tap.kill('SIGTERM');
    process.exit(1);
  });
}

function main(): void {
  const parsed = parseTapArgs(process.argv.slice(2));
  if (parsed === 'help') {
    process.stdout.write(TAP_USAGE);
    return;
  }
  if ('error' in parsed) {
    process.stderr.write(`tap: ${parsed.error}\n\n${TAP_USAGE}`);
    printLine(encodeTapEvent({ tap: 1, ev: 'error', t: roundTapTime(performance.now()), message: `malformed command line: ${parsed.error}` }));
    exitAfterFlush(2);
    return;
  }
  switch (parsed.mode) {
    case 'tap':
      return runTap(parsed.argv, undefined, parsed.relay === true);
    case 'stdio': {
      if (parsed.transparent) return void Promise.resolve().then(() => runTransparent(parsed)).then(exitAfterFlush, failToStart);
      let recording: StdioRecording;
      try {
        recording = startStdioRecording(parsed);
      } catch (error) {
        return failToStart(error);
      }
      return runTap(parsed.argv, recording);
    }
    case 'between':
      return void Promise.resolve().then(() => runBetween(parsed)).then(exitAfterFlush, failToStart);
    case 'http':
      return void runRelay(parsed).then(exitAfterFlush, failToStart);
  }
}

function failToStart(error: unknown): void {
  process.stderr.write(`tap: ${(error as Error).message}\n`);
  exitAfterFlush(1);
}

main();
