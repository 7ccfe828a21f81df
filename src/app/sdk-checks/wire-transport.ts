// The official SDK's Client talking through one of our Wires: an SDK `Transport` whose bytes are
// the server's stdin and stdout as the live host carries them, framed as the SDK frames stdio
// (NDJSON). Messages are written with the SDK's own `serializeMessage` and read with its own
// `deserializeMessage` (the JSON-RPC schema check). Only the line cutting is ours: the SDK's
// `ReadBuffer` is built on Node's `Buffer`, which a browser does not have, so the same cut is
// done here on plain bytes — at each '\n', a trailing '\r' dropped, the line decoded as UTF-8 —
// exactly as `ReadBuffer.readMessage` does it.
//
// This module imports the SDK, so it is only ever loaded through a dynamic import.

import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ByteTransport, Unsubscribe } from '../../protocol/transport.ts';

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** As the SDK's STDIO_DEFAULT_MAX_BUFFER_SIZE: a server that never ends its line cannot eat the page. */
export const MAX_LINE_BUFFER_BYTES = 10 * 1024 * 1024;
/** After close() ends stdin, how long the server may take to exit before it is killed. */
export const DEFAULT_CLOSE_GRACE_MS = 2000;

/** Cuts NDJSON lines out of stdout chunks, as the SDK's ReadBuffer does, without Node's Buffer. */
export class LineCutter {
  private buffer = new Uint8Array(0);
  private readonly decoder = new TextDecoder('utf-8');

  constructor(private readonly maxBytes = MAX_LINE_BUFFER_BYTES) {}

  /** Appends a chunk and returns every complete line in it (without its line end). */
  push(chunk: Uint8Array): string[] {
    if (this.buffer.length + chunk.length > this.maxBytes) {
      this.buffer = new Uint8Array(0);
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBytes} bytes`);
    }
    const joined = new Uint8Array(this.buffer.length + chunk.length);
    joined.set(this.buffer, 0);
    joined.set(chunk, this.buffer.length);
    const lines: string[] = [];
    let start = 0;
    for (let at = joined.indexOf(NEWLINE, start); at !== -1; at = joined.indexOf(NEWLINE, start)) {
      const end = at > start && joined[at - 1] === CARRIAGE_RETURN ? at - 1 : at;
      lines.push(this.decoder.decode(joined.subarray(start, end)));
      start = at + 1;
    }
    this.buffer = joined.slice(start);
    return lines;
  }

  get bufferedBytes(): number {
    return this.buffer.length;
  }
}

export interface WireTransportOptions {
  closeGraceMs?: number;
  /** Stop the server when close()'s grace runs out (the Wire's kill). */
  kill?: () => void;
}

export class WireTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  /** The version the SDK Client settled on in its handshake (it tells its transport). */
  protocolVersion: string | null = null;

  private readonly cutter = new LineCutter();
  private readonly encoder = new TextEncoder();
  private stops: Unsubscribe[] = [];
  private started = false;
  private closed = false;
  private readonly whenClosed: Promise<void>;
  private markClosed!: () => void;

  constructor(
    private readonly bytes: ByteTransport,
    private readonly options: WireTransportOptions = {},
  ) {
    this.whenClosed = new Promise((resolve) => {
      this.markClosed = resolve;
    });
  }

  async start(): Promise<void> {
    // The SDK's own transports refuse a second start: a Client connected twice is a bug.
    if (this.started) throw new Error('WireTransport already started! If using Client class, note that connect() calls start() automatically.');
    this.started = true;
    this.stops = [this.bytes.onData((chunk) => this.receive(chunk)), this.bytes.onClose(() => this.finish())];
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('Not connected');
    this.bytes.write(this.encoder.encode(serializeMessage(message)));
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /** Like the SDK's stdio client: end stdin, give the server a moment to exit, then stop it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.bytes.end();
    const grace = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), this.options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS));
    if ((await Promise.race([this.whenClosed.then(() => 'closed' as const), grace])) === 'late') this.options.kill?.();
    this.finish();
  }

  private receive(chunk: Uint8Array): void {
    let lines: string[];
    try {
      lines = this.cutter.push(chunk);
    } catch (error) {
      this.onerror?.(asError(error));
      return;
    }
    for (const line of lines) {
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line);
      } catch (error) {
        // The SDK's StdioClientTransport reports a line it cannot parse and carries on; so do we.
        this.onerror?.(new UnreadableLineError(line, asError(error)));
        continue;
      }
      this.onmessage?.(message);
    }
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    for (const stop of this.stops) stop();
    this.stops = [];
    this.markClosed();
    this.onclose?.();
  }
}

/** A stdout line the SDK would not accept as a JSON-RPC message; `line` is kept for the report. */
export class UnreadableLineError extends Error {
  override name = 'UnreadableLineError';
  constructor(
    readonly line: string,
    cause: Error,
  ) {
    // JSON.parse says where the syntax broke; the SDK's schema check (zod) says only that no
    // JSON-RPC message shape fits, in a long dump nobody should have to read.
    const why = cause.name === 'SyntaxError' ? `not JSON: ${firstLine(cause.message)}` : 'valid JSON, but not a JSON-RPC message the SDK accepts';
    super(`the SDK could not read a line from the server (${why}): ${shorten(line)}`);
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function firstLine(text: string): string {
  const line = text.split('\n').find((part) => part.trim() !== '') ?? text;
  return shorten(line.trim());
}

export function shorten(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
