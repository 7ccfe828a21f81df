// The plumbing every room request goes through: which requests may reach the room at all, reading
// a bounded JSON body, and answering in JSON. The rules are the token endpoint's (see
// bridge-token-endpoint.ts): our own host names only (DNS rebinding), our own origins only, and a
// custom header no form, image or foreign page can send without a preflight we never answer.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_ROOM_BODY_BYTES, ROOM_REQUEST_HEADER } from '../../src/runtime/room-messages.ts';
import { EVERY_RESPONSE_HEADERS } from '../security-headers.ts';

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Null when the request may reach the room, else why not (answered 403). */
export function refuseForeignRequest(req: IncomingMessage, ownOrigins: readonly string[]): string | null {
  if (header(req, ROOM_REQUEST_HEADER) !== '1') return `missing ${ROOM_REQUEST_HEADER}`;
  if (!ownOrigins.includes(`http://${header(req, 'host') ?? ''}`)) return 'not one of our host names';
  const site = header(req, 'sec-fetch-site');
  if (site !== undefined && site !== 'same-origin') return `Sec-Fetch-Site ${site}`;
  const origin = header(req, 'origin');
  if (origin !== undefined && !ownOrigins.includes(origin)) return 'origin not allowed';
  return null;
}

export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

/** The request's JSON body, at most MAX_ROOM_BODY_BYTES; a BodyError for anything else. */
export async function readJsonBody(req: IncomingMessage, limit = MAX_ROOM_BODY_BYTES): Promise<unknown> {
  const type = header(req, 'content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new BodyError(415, 'send application/json');
  const declared = Number(header(req, 'content-length') ?? NaN);
  if (declared > limit) throw new BodyError(413, `the body is over ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyError(413, `the body is over ${limit} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BodyError(400, 'the body is not JSON');
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, {
    ...EVERY_RESPONSE_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': bytes.length,
    'Cache-Control': 'no-store',
    ...extra,
  });
  res.end(bytes);
}

export function sendError(res: ServerResponse, status: number, error: string, extra: Record<string, string> = {}): void {
  sendJson(res, status, { error }, extra);
}

/** A download: the instructor's export. */
export function sendFile(res: ServerResponse, text: string, type: string, fileName: string): void {
  const bytes = Buffer.from(text, 'utf8');
  res.writeHead(200, {
    ...EVERY_RESPONSE_HEADERS,
    'Content-Type': type,
    'Content-Length': bytes.length,
    'Content-Disposition': `attachment; filename="${fileName}"`,
    'Cache-Control': 'no-store',
  });
  res.end(bytes);
}

/** Start a text/event-stream answer; the caller writes events and ends it. */
export function startEventStream(res: ServerResponse): void {
  res.writeHead(200, {
    ...EVERY_RESPONSE_HEADERS,
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
  });
  res.flushHeaders();
}
