// The learner's exercise-4 server as a Node program: the echo server's session and tools, served
// through the learner's own McpServer class. The bridge (on a loopback bridge only) and the
// WebContainer host run it; the learner's source arrives in a job file (learner-server-job.ts)
// whose path is the only argument, so nothing the page sent ever reaches a command line.
//
//   node learner-server.mjs <job.json>
//
// Exit codes: 0 after stdin ends, 2 for a bad command line or job file, 3 when the learner's server
// did not load (syntax error, missing export, constructor threw); the reason is one stderr line.
// The bridge starts it in an OS sandbox (learner-sandbox.ts) under Node's permission model (read
// access to this file and the job only). There the variable LEARNER_SERVER_HEARTBEAT_FD names a pipe
// this runner writes one byte to every LEARNER_SERVER_HEARTBEAT_MS, from its own timer: learner code
// that never yields stops the beat, and the bridge ends the process, as the worker host does.

import { readFileSync, writeSync } from 'node:fs';
import { parseLearnerServerJob } from '../src/runtime/learner-server-job.ts';
import { LEARNER_SERVER_HEARTBEAT_MS } from '../src/sandbox/learner-server-constants.ts';
import { LEARNER_SERVER_LOAD_EXIT_CODE, LEARNER_SERVER_LOG_PREFIX, loadFailureLine, startLearnerSession } from '../src/sandbox/learner-server-core.ts';
import { PROTOCOL_MODULE_MAP } from '../src/sandbox/protocol-module-map.ts';
import { serveOnStdio, stderrLogger } from './stdio-session.ts';

const PROGRAM = 'learner-server.mjs';
const USAGE_EXIT_CODE = 2;
const log = stderrLogger(LEARNER_SERVER_LOG_PREFIX);

// Hidden from the learner's code as the spec runner hides them in the browser. Defence in depth
// only: globalThis still reaches them, which is why the bridge adds the permission model.
const HIDDEN_GLOBALS = ['process', 'Buffer', 'fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource', 'BroadcastChannel', 'importScripts'];

/** Start beating before any learner code runs, so a top-level endless loop is caught too. */
function startHeartbeat(): void {
  const fd = Number(process.env.LEARNER_SERVER_HEARTBEAT_FD);
  if (!Number.isInteger(fd) || fd < 3) return;
  const beat = (): void => {
    try {
      writeSync(fd, 'h');
    } catch {
      // The bridge stopped listening; it will end us if it cares.
    }
  };
  beat();
  setInterval(beat, LEARNER_SERVER_HEARTBEAT_MS).unref();
}

function main(): void {
  startHeartbeat();
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0]?.startsWith('-')) {
    process.stderr.write(`usage: node ${PROGRAM} <job.json>\n`);
    process.exitCode = USAGE_EXIT_CODE;
    return;
  }
  let text: string;
  try {
    text = readFileSync(args[0] as string, 'utf8');
  } catch (error) {
    log(`cannot read the job file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    process.exitCode = USAGE_EXIT_CODE;
    return;
  }
  const job = parseLearnerServerJob(text);
  if (!job.ok) {
    log(`bad job file: ${job.reason}`);
    process.exitCode = USAGE_EXIT_CODE;
    return;
  }
  const { framing, faults, source } = job.value;
  const started = startLearnerSession(
    source,
    { framing, faults, write: (bytes) => process.stdout.write(bytes), log },
    { protocolModules: PROTOCOL_MODULE_MAP, shadowedGlobals: Object.fromEntries(HIDDEN_GLOBALS.map((name) => [name, undefined])) },
  );
  if (!started.ok) {
    log(loadFailureLine(started.message));
    process.exitCode = LEARNER_SERVER_LOAD_EXIT_CODE;
    return;
  }
  log(`pid ${process.pid}, your ${source.file}, framing ${framing}, faults: ${faults.length > 0 ? faults.join(', ') : 'none'}`);
  serveOnStdio(started.value, log, framing);
}

main();
