// A server session on this process's own stdin/stdout: what echo-server.mjs and learner-server.mjs
// both are once their session exists. Stdout carries frames only; logs go to stderr.

import type { FramingName } from '../src/protocol/framing/types.ts';
import type { ServerSession } from '../src/protocol/server-session.ts';
import { FirstLineWatch } from '../src/runtime/framing-mismatch.ts';

/**
 * Pipe stdin into the session; exit cleanly once stdin ends and every request is answered. Given
 * the session's framing, a first line in the other framing gets one hint on stderr naming the flag
 * that fits (a client and server that disagree on framing otherwise both wait in silence).
 */
export function serveOnStdio(session: ServerSession, log: (line: string) => void, framing?: FramingName): void {
  const firstLine = framing === undefined ? null : new FirstLineWatch(framing);
  process.stdin.on('data', (chunk: Buffer) => {
    const hint = firstLine?.push(chunk);
    if (hint) log(hint);
    // A plain Uint8Array view: the session is pure code and must not meet Buffer's view-returning slice().
    session.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  });
  process.stdin.on('end', () => {
    // EOF is how a stdio client says goodbye: finish what was asked, then leave. No process.exit():
    // returning to an empty event loop lets Node flush every pending stdout write first.
    log('stdin closed; finishing in-flight requests');
    void session.finish().then(() => {
      log('done, exiting');
      process.exitCode = 0;
    });
  });
  // The client closed its end of our stdout: nobody is listening any more.
  process.stdout.on('error', (error) => {
    log(`stdout closed (${(error as NodeJS.ErrnoException).code ?? error.message}); exiting`);
    process.exit(0);
  });
}

/** A stderr logger with the program's prefix, as every program here writes its log lines. */
export function stderrLogger(prefix: string): (line: string) => void {
  return (line) => void process.stderr.write(`${prefix} ${line}\n`);
}
