// `--between "<client>" -- <server>`: the tap runs a client and a server and is the pipe between
// them. The client's stdout goes to the server's stdin, the server's stdout to the client's stdin,
// each chunk recorded on the way (c2s once the server's stdin took it, s2c as it was read: the same
// points the stdio tap records). Both stderrs are recorded and shown on the tap's own stderr.
//
// Both ends run in a tap-core each, so the events are the tap's own. It ends the way the MCP stdio
// transport says a session ends: when one side exits, the other's stdin is closed; a side that
// does not exit within a grace period gets SIGTERM, then, after another, SIGKILL. The grace is one
// real servers meet (the Python SDK's takes about 2 s to leave after its stdin closes), and the
// exit event records the step it ended after (`shutdown`), so a trace never reads as a kill when
// the server left by itself.

import type { TapEvent } from '../src/runtime/tap-protocol.ts';
import { TRACE_FORMAT, TRACE_VERSION, type ShutdownStep } from '../src/runtime/trace/trace-format.ts';
import type { TapArgs } from './tap-args.ts';
import { exitCodeFor, startTap, type TapCore, type TapEnd } from './tap-core.ts';
import { RECORDER, startClock, summaryLine } from './tap-record.ts';
import { openTraceFile } from './trace-file.ts';

/** Stop reading a side while this much of its output waits in the other side's stdin. */
const BACKLOG_LIMIT = 1 << 20;
/** From stdin closed to SIGTERM, and from SIGTERM to SIGKILL. */
export const SHUTDOWN_GRACE_MS = 5_000;

type Between = Extract<TapArgs, { mode: 'between' }>;

/** Runs the pair; resolves with the exit code the tap should give (the client's). */
export function runBetween(args: Between): Promise<number> {
  const clock = startClock();
  const file = openTraceFile(
    args.record,
    { format: TRACE_FORMAT, version: TRACE_VERSION, mode: 'between', started: clock.started, recorder: RECORDER, program: args.argv, client: args.client },
    args.framing,
  );

  return new Promise((resolve) => {
    const ends: { client?: TapEnd; server?: TapEnd } = {};
    /** How far each side's shutdown has gone, once the other side ended. */
    const steps: { client?: ShutdownStep; server?: ShutdownStep } = {};
    /** The tap itself was told to stop (a signal): both sides get it directly, no shutdown sequence. */
    let interrupted = false;
    const withStep = <E extends TapEvent>(side: 'client' | 'server', event: E): E => (event.ev === 'exit' && steps[side] !== undefined ? { ...event, shutdown: steps[side] } : event);
    const timers: NodeJS.Timeout[] = [];

    const showStderr = (event: TapEvent): void => {
      if (event.ev === 'stderr') process.stderr.write(Buffer.from(event.b64, 'base64'));
    };

    // Forward one side's output to the other's stdin, holding the source while the sink is behind.
    const forward = (b64: string, from: TapCore, to: TapCore): void => {
      to.run({ cmd: 'write', b64 });
      if (to.inputBacklogBytes > BACKLOG_LIMIT) {
        from.pauseOutput();
        to.onInputDrained(() => from.resumeOutput());
      }
    };

    const server: TapCore = startTap({
      argv: args.argv,
      now: clock.now,
      onLine: (line, event) => {
        if (event.ev === 'exit' && steps.server !== undefined) file.add(withStep('server', event));
        else file.add(event, line);
        showStderr(event);
        if (event.ev === 's2c') forward(event.b64, server, client);
      },
      onEnd: (end) => ended('server', end),
    });
    const client: TapCore = startTap({
      argv: args.client,
      now: clock.now,
      onLine: (_line, event) => {
        // The client's stdout is the session's c2s, recorded by the server's tap once written;
        // the client's stdin gets the s2c already recorded. Only the client's own life is new.
        switch (event.ev) {
          case 's2c':
            return forward(event.b64, client, server);
          case 'spawn':
          case 'stderr':
          case 'exit':
          case 'error':
            file.add({ ...withStep('client', event), proc: 'client' });
            return showStderr(event);
          default:
            // c2s (the server's s2c, recorded already), or anything a plain tap never reports.
            return;
        }
      },
      onEnd: (end) => ended('client', end),
    });

    function ended(side: 'client' | 'server', end: TapEnd): void {
      ends[side] = end;
      const other = side === 'client' ? server : client;
      if (!other.ended) {
        // What the gone side wrote is already queued to the other: EOF comes after it.
        const otherSide = side === 'client' ? 'server' : 'client';
        other.run({ cmd: 'eof' });
        if (!interrupted) steps[otherSide] = 'eof';
        const escalate = (signal: 'SIGTERM' | 'SIGKILL') => () => {
          if (other.ended) return;
          if (!interrupted) steps[otherSide] = signal;
          other.kill(signal);
        };
        timers.push(setTimeout(escalate('SIGTERM'), SHUTDOWN_GRACE_MS));
        timers.push(setTimeout(escalate('SIGKILL'), 2 * SHUTDOWN_GRACE_MS));
      }
      if (ends.client && ends.server) {
        for (const timer of timers) clearTimeout(timer);
        file.close();
        process.stderr.write(summaryLine(file));
        const clientEnd = ends.client;
        resolve(clientEnd.kind === 'exited' ? exitCodeFor(clientEnd.code, clientEnd.signal) : clientEnd.exitCode);
      }
    }

    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.on(signal, () => {
        // Keep what is recorded so far, then let both sides end; their exits end the recording.
        interrupted = true;
        file.flush();
        client.kill(signal);
        server.kill(signal);
      });
    }
  });
}
