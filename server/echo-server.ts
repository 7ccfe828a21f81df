// The echo server as a Node program: MCP on its own stdin/stdout, through the same server session
// the in-browser worker uses. Stdout carries frames and nothing else; every log line goes to
// stderr, because a stray line on stdout is exactly the bug the chapter warns about (unless the
// stdout-log fault is switched on to show it).
//
//   node echo-server.mjs [--framing=content-length|ndjson] [--fault=NAME]...

import { createServerSession } from '../src/protocol/server-session.ts';
import { parseEchoServerArgs, usageText, type EchoServerOptions } from '../src/runtime/echo-server-args.ts';

const PROGRAM = 'echo-server.mjs';

function log(line: string): void {
  process.stderr.write(`[echo-server] ${line}\n`);
}

function serve({ framing, faults }: EchoServerOptions): void {
  const session = createServerSession({
    framing,
    faults,
    // One process.stdout.write per chunk the session hands us: with split-writes on, the pieces
    // leave as separate writes (the pipe may still merge them, as real pipes do).
    write: (bytes) => process.stdout.write(bytes),
    log,
  });
  log(`pid ${process.pid}, framing ${framing}, faults: ${faults.length > 0 ? faults.join(', ') : 'none'}`);

  process.stdin.on('data', (chunk: Buffer) => {
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

function main(): void {
  const parsed = parseEchoServerArgs(process.argv.slice(2));
  switch (parsed.kind) {
    case 'help':
      process.stdout.write(usageText(PROGRAM));
      return;
    case 'usage-error':
      // Nothing on stdout: a client reading frames must not mistake the usage text for one.
      process.stderr.write(`${PROGRAM}: ${parsed.message}\n\n${usageText(PROGRAM)}`);
      process.exitCode = 2;
      return;
    case 'run':
      serve(parsed.options);
      return;
  }
}

main();
