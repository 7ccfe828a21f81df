// The Wire of an HTTP server (program mcp-http): the same tap lines as any other program, plus
// relayed TCP connections (`connect` / `open` / c2s and s2c with `conn` / `close`). Over those
// connections the page speaks HTTP/1.1 itself (http1Exchange), and HttpClientTransport speaks
// Streamable HTTP on top, so McpClient runs over this wire unchanged (NDJSON lines in and out)
// while every byte of every request, response and event is a tap event the inspector can show.

import type { Unsubscribe } from '../protocol/transport.ts';
import type { ByteConnection, ConnectionOpener } from '../protocol/http/byte-connection.ts';
import { HttpClientTransport } from '../protocol/http/client-transport.ts';
import { http1Exchange } from '../protocol/http/http1-exchange.ts';
import type { HttpExchange } from '../protocol/http/types.ts';
import type { HostKind, Wire } from './host.ts';
import { base64ToBytes, bytesToBase64, encodeTapCommand, parseTapEvent } from './tap-protocol.ts';
import { createTapWire, type LineChannel, type TapWireOptions } from './tap-wire.ts';
import { ListenerSet } from './listener-set.ts';

/**
 * The URL the client puts in its requests. The page never learns the server's port (only the tap
 * that spawned it does), and the server compares Host names without the port.
 */
export const HTTP_WIRE_URL = 'http://127.0.0.1/mcp';
/** After end() (DELETE), how long to wait for its answer before the server is stopped anyway. */
const END_GRACE_MS = 2000;

export interface HttpTapWireOptions extends TapWireOptions {
  /** Sent as `Origin`, as a browser would; default this page's origin. */
  origin?: string;
  /** Open the standalone GET stream after the handshake. Default true. */
  listen?: boolean;
}

export interface HttpWire extends Wire {
  /** The session id the server gave, once initialize was answered. */
  readonly sessionId: string | undefined;
  /**
   * A raw relayed TCP connection to the server, past the client: the failure lab writes a request's
   * exact bytes on it (a foreign Origin, no Accept, no session id) that the page's client never sends.
   */
  connect(): Promise<ByteConnection>;
  /**
   * The page's HTTP/1.1 client over relayed connections (Host, Origin and `Connection: close` are
   * its own), for a client transport that runs elsewhere: the learner's exercise-6 transport in the
   * learner worker sends its requests here. Use it instead of write(), not beside it.
   */
  readonly exchange: HttpExchange;
}

interface Relayed {
  data: ListenerSet<Uint8Array>;
  ends: ListenerSet<string | undefined>;
  opened: { resolve(): void; reject(error: Error): void } | null;
  ended: boolean;
}

export function createHttpTapWire(kind: HostKind, channel: LineChannel, options: HttpTapWireOptions = {}): HttpWire {
  const base = createTapWire(kind, channel, options);
  const relayed = new Map<number, Relayed>();
  let nextConn = 1;
  let gone: string | null = null;

  function endConnection(conn: number, reason?: string): void {
    const entry = relayed.get(conn);
    if (!entry || entry.ended) return;
    entry.ended = true;
    relayed.delete(conn);
    entry.opened?.reject(new Error(reason ?? 'the server closed the connection before it opened'));
    entry.opened = null;
    entry.ends.emit(reason);
  }

  const stopLines = channel.onLine((line) => {
    const event = parseTapEvent(line);
    if (!event) return;
    if (event.ev === 'open') {
      const entry = relayed.get(event.conn);
      entry?.opened?.resolve();
      if (entry) entry.opened = null;
    } else if (event.ev === 's2c' && event.conn !== undefined) {
      relayed.get(event.conn)?.data.emit(base64ToBytes(event.b64));
    } else if (event.ev === 'close') {
      endConnection(event.conn, event.message);
    }
  });
  base.onClose((reason) => {
    gone = reason;
    stopLines();
    for (const conn of [...relayed.keys()]) endConnection(conn, reason);
  });

  const open: ConnectionOpener = () =>
    new Promise<ByteConnection>((resolve, reject) => {
      if (gone !== null) return reject(new Error(gone));
      const conn = nextConn++;
      const entry: Relayed = { data: new ListenerSet(), ends: new ListenerSet(), opened: null, ended: false };
      const connection: ByteConnection = {
        write(bytes) {
          if (!entry.ended) channel.send(encodeTapCommand({ cmd: 'write', conn, b64: bytesToBase64(bytes) }));
        },
        close() {
          if (!entry.ended) channel.send(encodeTapCommand({ cmd: 'close', conn }));
        },
        onData: (listener): Unsubscribe => entry.data.add(listener),
        onEnd: (listener): Unsubscribe => entry.ends.add(listener),
      };
      entry.opened = { resolve: () => resolve(connection), reject };
      relayed.set(conn, entry);
      channel.send(encodeTapCommand({ cmd: 'connect', conn }));
    });

  let ending = false;
  const origin = options.origin ?? (typeof location === 'undefined' ? undefined : location.origin);
  const exchange = http1Exchange(async () => {
    const connection = await open();
    // The DELETE of end(): once it is answered the session is over, and so is the server.
    if (ending) connection.onEnd(() => base.kill());
    return connection;
  }, origin === undefined ? {} : { origin });
  const transport = new HttpClientTransport({ url: HTTP_WIRE_URL, exchange, listen: options.listen ?? true });

  return {
    host: kind,
    get sessionId() {
      return transport.session;
    },
    write: (bytes) => transport.write(bytes),
    end() {
      if (ending) return;
      ending = true;
      const hadSession = transport.session !== undefined;
      transport.end();
      if (!hadSession) base.kill();
      else setTimeout(() => base.kill(), END_GRACE_MS);
    },
    kill: () => base.kill(),
    connect: open,
    exchange,
    onData: (listener) => transport.onData(listener),
    onTapEvent: (listener) => base.onTapEvent(listener),
    onClose: (listener) => base.onClose(listener),
  };
}
