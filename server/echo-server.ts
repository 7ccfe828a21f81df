// The echo server as a Node program: MCP on its own stdin/stdout, through the same server session
// the in-browser worker uses. Dual-era: initialize selects the handshake era (the reference
// McpServer, unchanged) for this process; a request whose _meta claims 2026-07-28 is served
// statelessly (src/protocol/era/dual-era-server.ts). Stdout carries frames and nothing else; every log line goes to
// stderr, because a stray line on stdout is exactly the bug the chapter warns about (unless the
// stdout-log fault is switched on to show it).
//
//   node echo-server.mjs [--framing=ndjson|content-length] [--era=dual|legacy|modern] [--fault=NAME]...

import { createServerSession } from '../src/protocol/server-session.ts';
import { sessionServerForEra } from '../src/protocol/era/session.ts';
import { parseEchoServerArgs, usageText, type EchoServerOptions } from '../src/runtime/echo-server-args.ts';
import { serveOnStdio, stderrLogger } from './stdio-session.ts';

const PROGRAM = 'echo-server.mjs';
const log = stderrLogger('[echo-server]');

function serve({ framing, faults, era = 'dual' }: EchoServerOptions): void {
  const session = createServerSession({
    framing,
    faults,
    // One process.stdout.write per chunk the session hands us: with split-writes on, the pieces
    // leave as separate writes (the pipe may still merge them, as real pipes do).
    write: (bytes) => process.stdout.write(bytes),
    log,
    createServer: sessionServerForEra(era),
  });
  log(`pid ${process.pid}, framing ${framing}, era ${era}, faults: ${faults.length > 0 ? faults.join(', ') : 'none'}`);
  serveOnStdio(session, log, framing);
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
