// HTTP messages as plain data, so the Streamable HTTP rules can live in the pure protocol layer:
// no sockets here. A Node program (server/mcp-http.ts) or a test turns real requests into these
// objects and writes the answers back; the client side is handed an exchange function that does
// the same in the other direction.

/** Header names in lower case (HTTP header names are case-insensitive; Node lower-cases them too). */
export type HttpHeaders = Readonly<Record<string, string | undefined>>;

export interface HttpRequest {
  method: string;
  /** The request target's path, possibly with a query (which is ignored). */
  path: string;
  headers: HttpHeaders;
  body?: Uint8Array;
}

/** A body written over time: the consumer reads chunks, and cancels when its connection goes away. */
export interface ByteStream extends AsyncIterable<Uint8Array> {
  /** The reader has gone (the client disconnected): stop writing to this connection. */
  cancel(): void;
}

export type HttpBody = { type: 'none' } | { type: 'bytes'; bytes: Uint8Array } | { type: 'stream'; stream: ByteStream };

export interface HttpResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: HttpBody;
}

/** What a client sends through an exchange. */
export interface HttpClientRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

/** What a client gets back: the status and headers first, then the body as it arrives. */
export interface HttpClientResponse {
  status: number;
  /** Lower-case names. */
  headers: HttpHeaders;
  body: AsyncIterable<Uint8Array>;
  /** Stop reading: closes the connection (an SSE stream the client no longer wants). */
  cancel(): void;
}

/** The one thing the client transport needs from the outside world: send a request, get a response. */
export type HttpExchange = (request: HttpClientRequest) => Promise<HttpClientResponse>;

/** A header's value by case-insensitive name. */
export function headerValue(headers: HttpHeaders, name: string): string | undefined {
  const direct = headers[name.toLowerCase()];
  if (direct !== undefined) return direct;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

export const HEADER = {
  sessionId: 'mcp-session-id',
  protocolVersion: 'mcp-protocol-version',
  lastEventId: 'last-event-id',
} as const;
