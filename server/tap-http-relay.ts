// `--listen[=PORT] --target=URL`: a relay on 127.0.0.1 in front of a Streamable HTTP MCP server.
// It is a TCP relay, not an HTTP proxy: each accepted connection gets its own connection to the
// target, and the bytes go through untouched, so the trace holds exactly what crossed, chunk by
// chunk (c2s as read from the client, s2c as read from the server), per connection. Nothing is
// re-serialised; the Host header the client sends names the relay, which a loopback server
// accepts (it checks the host name, not the port). Every request's head is read (never changed)
// to refuse a Host or Origin that is not loopback (relay-gate.ts), the second request on a
// kept-alive connection as much as the first: a refused request gets the relay's own 403, never
// reaches the server, and ends the connection (a response still in flight to an earlier request
// is cut there).

import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { TRACE_FORMAT, TRACE_VERSION } from '../src/runtime/trace/trace-format.ts';
import { roundTapTime } from '../src/runtime/tap-protocol.ts';
import type { TapArgs } from './tap-args.ts';
import { refusalResponse, RequestGate } from './relay-gate.ts';
import { RECORDER, startClock, summaryLine } from './tap-record.ts';
import { openTraceFile, type TraceFile } from './trace-file.ts';

type Relay = Extract<TapArgs, { mode: 'http' }>;

export interface RunningRelay {
  /** The URL to use instead of the target: the relay's address and the target's path. */
  url: string;
  file: TraceFile;
  /** Stop accepting, cut open connections, flush and close the file. */
  stop(): Promise<void>;
}

export function startRelay(args: Relay): Promise<RunningRelay> {
  const clock = startClock();
  const targetPort = Number(args.target.port || 80);
  const targetHost = args.target.hostname.replace(/^\[(.*)\]$/, '$1');
  // Each open connection's two sockets, so stop() can say which were cut and wait for them.
  const open = new Map<number, { client: Socket; upstream: Socket; closed: Promise<void> }>();
  let nextConn = 1;
  let file: TraceFile | null = null;
  const t = (): number => roundTapTime(clock.now());

  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    const conn = nextConn++;
    const trace = file as TraceFile;
    trace.add({ tap: 1, ev: 'open', t: t(), conn });
    // Nothing of a request goes to the server until its head passed the gate.
    const gate = new RequestGate();
    let refused = false;
    const upstream = createConnection({ host: targetHost, port: targetPort, allowHalfOpen: true });
    let closedBy: 'client' | 'server' | null = null;
    let closedSockets = 0;
    let markClosed = (): void => {};
    open.set(conn, { client, upstream, closed: new Promise((done) => (markClosed = done)) });

    const relay = (from: Socket, to: Socket, ev: 'c2s' | 's2c', side: 'client' | 'server'): void => {
      from.on('data', (chunk: Buffer) => {
        trace.add({ tap: 1, ev, t: t(), b64: chunk.toString('base64'), conn });
        if (refused) return;
        if (side === 'client') {
          const { forward, refusal } = gate.push(chunk);
          if (refusal !== null) {
            trace.add({ tap: 1, ev: 'error', t: t(), message: `refused by the relay (${refusal.status}): ${refusal.reason}`, conn });
            refused = true;
            upstream.destroy();
            // FIN after the answer, then read on until the client closes too: a reset could lose it.
            from.end(refusalResponse(refusal.status, refusal.reason));
            return;
          }
          if (forward.length === 0) return;
          chunk = Buffer.from(forward.buffer, forward.byteOffset, forward.byteLength);
        }
        if (!to.write(chunk)) {
          from.pause();
          to.once('drain', () => from.resume());
        }
      });
      // Half-close passes through: an HTTP/1.1 client may end its side and still read the reply.
      from.on('end', () => {
        closedBy ??= side;
        // A client that ends in the middle of a head (or before any request) has sent nothing more the server may see.
        if (side === 'client' && gate.holdsUnjudgedBytes) to.destroy();
        else to.end();
      });
      from.on('error', (error) => {
        closedBy ??= side;
        trace.add({ tap: 1, ev: 'error', t: t(), message: `${side} connection: ${error.message}`, conn });
        to.destroy();
      });
      from.on('close', () => {
        closedBy ??= side;
        // The server's side of a refused connection closes at once; the client's answer is on its way.
        if (!(refused && side === 'server')) to.destroy();
        if (++closedSockets < 2) return;
        trace.add({ tap: 1, ev: 'close', t: t(), conn, by: closedBy });
        open.delete(conn);
        markClosed();
      });
    };
    relay(client, upstream, 'c2s', 'client');
    relay(upstream, client, 's2c', 'server');
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(args.port, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : args.port;
      const listen = `http://127.0.0.1:${port}`;
      try {
        file = openTraceFile(
          args.record,
          { format: TRACE_FORMAT, version: TRACE_VERSION, mode: 'http', started: clock.started, recorder: RECORDER, target: args.target.href, listen },
          'http',
        );
      } catch (error) {
        server.close();
        reject(error as Error);
        return;
      }
      const opened = file;
      resolve({
        url: `${listen}${args.target.pathname}${args.target.search}`,
        file: opened,
        stop: async () => {
          const cut = [...open.entries()];
          for (const [conn] of cut) {
            opened.add({ tap: 1, ev: 'error', t: t(), message: 'the relay stopped with this connection open', conn });
          }
          const serverClosed = new Promise<void>((done) => server.close(() => done()));
          for (const [, sockets] of cut) {
            sockets.client.destroy();
            sockets.upstream.destroy();
          }
          // Their close events go into the file before it closes.
          await Promise.all([serverClosed, ...cut.map(([, sockets]) => sockets.closed)]);
          opened.close();
        },
      });
    });
  });
}

/** The CLI: start, print the URL on stdout, record until SIGINT/SIGTERM. */
export async function runRelay(args: Relay): Promise<number> {
  let relay: RunningRelay;
  try {
    relay = await startRelay(args);
  } catch (error) {
    process.stderr.write(`[tap] cannot relay: ${(error as Error).message}\n`);
    return 1;
  }
  process.stdout.write(`${relay.url}\n`);
  process.stderr.write(`[tap] relaying ${relay.url} -> ${args.target.href}, recording to ${relay.file.path}; Ctrl-C to stop\n`);
  return new Promise((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(signal, () => {
        relay.file.flush();
        void relay.stop().then(() => {
          process.stderr.write(summaryLine(relay.file));
          resolve(0);
        });
      });
    }
  });
}
