// The tap for an HTTP server (mcp-http): everything tap-core does for the process — spawn, its
// stdout and stderr, its exit — plus a relay of loopback TCP connections to the port the process
// listens on, each reported as c2s / s2c events with the connection's number, exactly as the bytes
// crossed the socket. The page speaks HTTP/1.1 over these bytes itself (src/protocol/http/
// http1-exchange.ts), so what its inspector shows is what the server read and wrote.
//
//   page → tap   {"cmd":"connect","conn":1}  {"cmd":"write","conn":1,"b64":…}  {"cmd":"close","conn":1}
//   tap → page   {"ev":"open","conn":1}  {"ev":"c2s","conn":1,"b64":…}  {"ev":"s2c","conn":1,"b64":…}  {"ev":"close","conn":1}
//
// What keeps it a relay to ONE server and nothing else: a connect command has no host and no port
// (the parser drops any such field); the only port is the one the spawned, shipped program printed
// on its own stdout as `http://127.0.0.1:PORT/mcp`; the only host is 127.0.0.1; and at most
// MAX_RELAY_CONNECTIONS are open at once.

import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { encodeTapEvent, roundTapTime, parseTapCommand, type TapCommand, type TapEvent } from '../src/runtime/tap-protocol.ts';
import { startTap, type TapCore, type TapCoreOptions } from './tap-core.ts';

export const MAX_RELAY_CONNECTIONS = 16;
/** The one line the HTTP program prints when it listens; nothing else on its stdout names a port. */
const LISTENING_LINE = /^http:\/\/127\.0\.0\.1:([0-9]{1,5})\/mcp\r?$/;

type ConnCommand = Extract<TapCommand, { cmd: 'connect' } | { cmd: 'close' }> | (Extract<TapCommand, { cmd: 'write' }> & { conn: number });

function isConnCommand(command: TapCommand): command is ConnCommand {
  return command.cmd === 'connect' || command.cmd === 'close' || (command.cmd === 'write' && command.conn !== undefined);
}

export function startRelayTap(options: TapCoreOptions): TapCore {
  const createdAt = performance.now();
  const now = options.now ?? (() => performance.now() - createdAt);
  const sockets = new Map<number, Socket>();
  const used = new Set<number>();
  /** Connects that came before the server said where it listens. */
  const early: number[] = [];
  let port: number | null = null;
  let stdoutText = '';
  /** Only the program's first stdout line may name the port; whatever it says later is only output. */
  let firstLineRead = false;
  let ended = false;

  function report(body: Record<string, unknown> & { ev: string }): void {
    if (ended) return;
    const { ev, ...fields } = body;
    const event = { tap: 1, ev, t: roundTapTime(now()), ...fields } as TapEvent;
    options.onLine(encodeTapEvent(event), event);
  }

  const inner = startTap({
    ...options,
    now,
    onLine(line, event) {
      if (event.ev === 's2c' && !firstLineRead) learnPort(event.b64);
      options.onLine(line, event);
    },
    onEnd(end) {
      ended = true;
      for (const socket of sockets.values()) socket.destroy();
      sockets.clear();
      options.onEnd(end);
    },
  });

  function learnPort(b64: string): void {
    stdoutText += Buffer.from(b64, 'base64').toString('latin1');
    const newline = stdoutText.indexOf('\n');
    if (newline === -1) {
      if (stdoutText.length > 200) stdoutText = stdoutText.slice(-200);
      return;
    }
    const match = LISTENING_LINE.exec(stdoutText.slice(0, newline));
    firstLineRead = true;
    stdoutText = '';
    const number = match ? Number(match[1]) : 0;
    if (number < 1 || number > 65535) return;
    port = number;
    for (const conn of early.splice(0)) open(conn);
  }

  function open(conn: number): void {
    if (port === null) return void early.push(conn);
    const socket = connect({ host: '127.0.0.1', port });
    sockets.set(conn, socket);
    socket.on('connect', () => report({ ev: 'open', conn }));
    socket.on('data', (chunk: Buffer) => report({ ev: 's2c', conn, b64: chunk.toString('base64') }));
    let failure: string | undefined;
    socket.on('error', (error) => (failure = error.message));
    socket.on('close', () => {
      if (sockets.get(conn) === socket) sockets.delete(conn);
      report(failure === undefined ? { ev: 'close', conn } : { ev: 'close', conn, message: failure });
    });
  }

  function relay(command: ConnCommand): void {
    switch (command.cmd) {
      case 'connect': {
        if (used.has(command.conn)) return report({ ev: 'error', message: `connection ${command.conn} was already used` });
        if (sockets.size + early.length >= MAX_RELAY_CONNECTIONS) {
          return report({ ev: 'close', conn: command.conn, message: `at most ${MAX_RELAY_CONNECTIONS} connections at once` });
        }
        used.add(command.conn);
        return open(command.conn);
      }
      case 'write': {
        const socket = sockets.get(command.conn);
        if (!socket || socket.destroyed) return report({ ev: 'error', message: `write to connection ${command.conn}, which is not open` });
        const b64 = command.b64;
        // c2s once the socket took the bytes, as the pipe relay reports stdin writes.
        socket.write(Buffer.from(b64, 'base64'), (error) => {
          if (!error) report({ ev: 'c2s', conn: command.conn, b64 });
        });
        return;
      }
      case 'close': {
        const waiting = early.indexOf(command.conn);
        if (waiting !== -1) {
          early.splice(waiting, 1);
          return report({ ev: 'close', conn: command.conn });
        }
        // The page is done with it (it read the whole response, or gave up on a stream).
        sockets.get(command.conn)?.destroy();
        return;
      }
    }
  }

  /** Call `listener` once no relayed socket holds unwritten bytes (a socket that closes counts as drained). */
  function socketsDrained(listener: () => void): void {
    const busy = [...sockets.values()].filter((socket) => socket.writableLength > 0 && !socket.destroyed);
    if (busy.length === 0) return queueMicrotask(listener);
    let left = busy.length;
    for (const socket of busy) {
      const done = (): void => {
        socket.off('drain', done);
        socket.off('close', done);
        if (--left === 0) listener();
      };
      socket.on('drain', done);
      socket.on('close', done);
    }
  }

  function run(command: TapCommand): void {
    if (isConnCommand(command)) relay(command);
    else inner.run(command);
  }

  return {
    get pid() {
      return inner.pid;
    },
    get ended() {
      return inner.ended;
    },
    // The bridge holds a page that writes faster than the server reads (bridge-session.ts); bytes
    // waiting in a relayed socket count as much as bytes waiting in the stdin pipe.
    get inputBacklogBytes() {
      let bytes = inner.inputBacklogBytes;
      for (const socket of sockets.values()) bytes += socket.writableLength;
      return bytes;
    },
    run,
    handleLine(line) {
      const command = parseTapCommand(line);
      if (command && isConnCommand(command)) relay(command);
      else inner.handleLine(line);
    },
    kill: (signal) => inner.kill(signal),
    killGroup: (signal) => inner.killGroup(signal),
    pauseOutput() {
      inner.pauseOutput();
      for (const socket of sockets.values()) socket.pause();
    },
    resumeOutput() {
      inner.resumeOutput();
      for (const socket of sockets.values()) socket.resume();
    },
    onInputDrained: (listener) => inner.onInputDrained(() => socketsDrained(listener)),
    reportStderr: (text) => inner.reportStderr(text),
  };
}
