// `--record=FILE --transparent -- <server>`: the tap as an invisible stdio server. Its stdin goes
// to the server's stdin and the server's stdout and stderr come out of its own, byte for byte, with
// no line protocol: any MCP client that spawns a stdio server (a desktop app's config, an
// inspector, the SDK's StdioClientTransport) can spawn the tap instead, and the session is
// recorded as it crosses. The events are the stdio tap's own (tap-core), the trace a stdio trace.

import type { TapArgs } from './tap-args.ts';
import { startTap, type TapCore } from './tap-core.ts';
import { startStdioRecording, summaryLine } from './tap-record.ts';

/** Stop reading our stdin while this much waits in the server's. */
const BACKLOG_LIMIT = 1 << 20;

type Stdio = Extract<TapArgs, { mode: 'stdio' }>;

/** Runs the server; resolves with the exit code the tap should give (the server's). */
export function runTransparent(args: Stdio): Promise<number> {
  const recording = startStdioRecording(args);
  return new Promise((resolve) => {
    const tap: TapCore = startTap({
      argv: args.argv,
      now: recording.now,
      onLine: (line, event) => {
        recording.onEvent(event, line);
        if (event.ev === 's2c') process.stdout.write(Buffer.from(event.b64, 'base64'));
        else if (event.ev === 'stderr') process.stderr.write(Buffer.from(event.b64, 'base64'));
        else if (event.ev === 'error') process.stderr.write(`[tap] ${event.message}\n`);
      },
      onEnd: (end) => {
        recording.finish();
        process.stderr.write(summaryLine(recording.file));
        resolve(end.exitCode);
      },
    });

    process.stdin.on('data', (chunk: Buffer) => {
      tap.run({ cmd: 'write', b64: chunk.toString('base64') });
      if (tap.inputBacklogBytes > BACKLOG_LIMIT) {
        process.stdin.pause();
        tap.onInputDrained(() => process.stdin.resume());
      }
    });
    // The client closed our stdin: the server's stdin closes after what is queued, as MCP ends a session.
    process.stdin.on('end', () => tap.run({ cmd: 'eof' }));
    process.stdin.on('error', () => tap.run({ cmd: 'eof' }));
    // The client stopped reading us: nobody can see the server any more.
    process.stdout.on('error', () => tap.kill('SIGTERM'));

    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.on(signal, () => {
        recording.file.flush();
        tap.kill(signal);
      });
    }
  });
}
