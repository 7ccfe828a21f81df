// The page's side of the room's HTTP requests (server/room/room.ts): join, report, and the two
// event streams, read with the project's own SSE reader. Every request carries the room header,
// which the bridge requires (it keeps other sites out) and which no form or image can send.

import { SseReader } from '../../protocol/framing/sse.ts';
import { ROOM_ATTENDEE_HEADER, ROOM_CODE_HEADER, ROOM_PATH_PREFIX, ROOM_REQUEST_HEADER, ROOM_SECRET_HEADER, type HelpRequest, type RoomProgress, type RoomReport, type RoomSnapshot } from '../../runtime/room-messages.ts';
import type { RoomMembership } from '../../runtime/room-membership.ts';

export interface RoomFetchDeps {
  fetch?: typeof fetch;
  /** The page's origin, e.g. http://192.168.1.5:5317. */
  origin: string;
}

export type JoinOutcome =
  | { ok: true; membership: RoomMembership }
  | { ok: false; reason: 'wrong-code' | 'too-many' | 'bad-name' | 'no-room' | 'offline'; detail: string };

export async function joinRoom(code: string, name: string, deps: RoomFetchDeps): Promise<JoinOutcome> {
  let response: Response;
  try {
    response = await roomFetch(deps, 'join', { method: 'POST', body: JSON.stringify({ code, name }) });
  } catch (error) {
    return { ok: false, reason: 'offline', detail: error instanceof Error ? error.message : String(error) };
  }
  const body = (await response.json().catch(() => null)) as { attendee?: string; secret?: string; name?: string; bridgeToken?: string | null; error?: string } | null;
  if (response.ok && typeof body?.attendee === 'string' && typeof body.secret === 'string' && typeof body.name === 'string') {
    const membership = { attendee: body.attendee, secret: body.secret, name: body.name, bridgeToken: body.bridgeToken ?? null, origin: deps.origin, nextSeq: 1 };
    return { ok: true, membership };
  }
  const detail = body?.error ?? `HTTP ${response.status}`;
  // A page not served by a shared bridge answers the room's paths with its HTML fallback or a 404.
  if (response.status === 403 && body?.error?.includes('join code')) return { ok: false, reason: 'wrong-code', detail };
  // Too many wrong codes from this device: the room says how long to wait.
  if (response.status === 429) return { ok: false, reason: 'too-many', detail: response.headers.get('retry-after') ?? '60' };
  if (response.status === 400) return { ok: false, reason: 'bad-name', detail };
  return { ok: false, reason: 'no-room', detail };
}

export type SendOutcome =
  | { kind: 'acked'; seqs: number[] }
  | { kind: 'unknown-attendee' }
  | { kind: 'refused'; detail: string }
  | { kind: 'retry'; detail: string };

export async function sendReports(membership: RoomMembership, reports: readonly RoomReport[], deps: RoomFetchDeps): Promise<SendOutcome> {
  let response: Response;
  try {
    response = await roomFetch(deps, 'report', { method: 'POST', body: JSON.stringify({ attendee: membership.attendee, secret: membership.secret, reports }) });
  } catch (error) {
    return { kind: 'retry', detail: error instanceof Error ? error.message : String(error) };
  }
  const body = (await response.json().catch(() => null)) as { acked?: unknown; error?: string } | null;
  if (response.ok && Array.isArray(body?.acked)) return { kind: 'acked', seqs: body.acked.filter((seq): seq is number => typeof seq === 'number') };
  if (response.status === 401) return { kind: 'unknown-attendee' };
  // Too frequent, or the bridge is restarting behind a proxy: try again later. A 400 will not get better.
  if (response.status === 429 || response.status >= 500) return { kind: 'retry', detail: body?.error ?? `HTTP ${response.status}` };
  return { kind: 'refused', detail: body?.error ?? `HTTP ${response.status}` };
}

/** The instructor's key and join code, or null where this page is not on the instructor's machine. */
export async function fetchRoomKey(deps: RoomFetchDeps): Promise<{ key: string; code: string; joinUrls: string[] } | null> {
  try {
    const response = await roomFetch(deps, 'key', {});
    if (!response.ok) return null;
    const body = (await response.json()) as { key?: unknown; code?: unknown; joinUrls?: unknown };
    if (typeof body.key !== 'string' || typeof body.code !== 'string' || !Array.isArray(body.joinUrls)) return null;
    return { key: body.key, code: body.code, joinUrls: body.joinUrls.filter((url): url is string => typeof url === 'string') };
  } catch {
    return null;
  }
}

/** The room did not take a question: its HTTP status says why (400 a bad question, 413 too big). */
export class HelpRefusedError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** "Ask for help": the question's place in the instructor's queue, or how long to wait before asking again. */
export async function askForHelp(membership: RoomMembership, request: HelpRequest, deps: RoomFetchDeps): Promise<{ id: number; position: number } | { retryAfterS: number }> {
  const response = await roomFetch(deps, 'help', { method: 'POST', body: JSON.stringify({ attendee: membership.attendee, secret: membership.secret, request }) });
  if (response.status === 429) return { retryAfterS: Number(response.headers.get('retry-after')) || 10 };
  const body = (await response.json().catch(() => null)) as { id?: unknown; position?: unknown; error?: string } | null;
  if (!response.ok || typeof body?.id !== 'number' || typeof body.position !== 'number') throw new HelpRefusedError(response.status, body?.error ?? `HTTP ${response.status}`);
  return { id: body.id, position: body.position };
}

export type OpenedQuestion = HelpRequest & { id: number; name: string; at: number; open: boolean };

/** One question in full, for the instructor. */
export async function fetchQuestion(key: string, id: number, deps: RoomFetchDeps): Promise<OpenedQuestion> {
  const response = await roomFetch(deps, `help?id=${id}`, { headers: { Authorization: `Bearer ${key}` } });
  if (!response.ok) throw new Error(`the room answered HTTP ${response.status}`);
  return (await response.json()) as OpenedQuestion;
}

/** The instructor answered a question: it leaves the queue. */
export async function closeQuestion(key: string, id: number, deps: RoomFetchDeps): Promise<void> {
  const response = await roomFetch(deps, 'help-done', { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: JSON.stringify({ id }) });
  if (!response.ok) throw new Error(`the room answered HTTP ${response.status}`);
}

/** "Send everyone to…": how many connected attendees the invitation reached. */
export async function sendEveryone(key: string, station: string, deps: RoomFetchDeps): Promise<number> {
  const response = await roomFetch(deps, 'send', { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: JSON.stringify({ station }) });
  const body = (await response.json().catch(() => null)) as { reached?: unknown; error?: string } | null;
  if (!response.ok || typeof body?.reached !== 'number') throw new Error(body?.error ?? `HTTP ${response.status}`);
  return body.reached;
}

/** The class's progress over time, for the instructor's chart. */
export async function fetchProgress(key: string, deps: RoomFetchDeps): Promise<RoomProgress> {
  const response = await roomFetch(deps, 'progress', { headers: { Authorization: `Bearer ${key}` } });
  if (!response.ok) throw new Error(`the room answered HTTP ${response.status}`);
  return (await response.json()) as RoomProgress;
}

/** One of the instructor's exports, as the bridge names it (room-YYYY-MM-DD.csv / .json). */
export async function fetchExport(key: string, kind: 'csv' | 'json', deps: RoomFetchDeps): Promise<{ fileName: string; text: string; type: string }> {
  const response = await roomFetch(deps, `export.${kind}`, { headers: { Authorization: `Bearer ${key}` } });
  if (!response.ok) throw new Error(`the room answered HTTP ${response.status}`);
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `room.${kind}`;
  return { fileName, text: await response.text(), type: kind === 'csv' ? 'text/csv' : 'application/json' };
}

/** Read the instructor's stream until it ends or `signal` aborts; each snapshot goes to `onSnapshot`. */
export async function readInstructorStream(key: string, deps: RoomFetchDeps, onSnapshot: (snapshot: RoomSnapshot) => void, signal: AbortSignal): Promise<void> {
  const response = await roomFetch(deps, 'events', { headers: { Authorization: `Bearer ${key}` }, signal });
  if (!response.ok || response.body === null) throw new Error(`the room answered HTTP ${response.status}`);
  await readEvents(response.body, (type, data) => {
    if (type === 'snapshot') onSnapshot(JSON.parse(data) as RoomSnapshot);
  });
}

/** The attendee's own stream: it tells the bridge this page is here. Ends when the bridge or `signal` ends it. */
export async function readAttendeeStream(membership: RoomMembership, deps: RoomFetchDeps, onEvent: (type: string, data: string) => void, signal: AbortSignal): Promise<'ended' | 'unknown-attendee'> {
  const response = await roomFetch(deps, 'stream', { headers: { [ROOM_ATTENDEE_HEADER]: membership.attendee, [ROOM_SECRET_HEADER]: membership.secret }, signal });
  if (response.status === 401) return 'unknown-attendee';
  if (!response.ok || response.body === null) throw new Error(`the room answered HTTP ${response.status}`);
  await readEvents(response.body, onEvent);
  return 'ended';
}

/** Who a follow view is in the room: a joined attendee, a projector with the join code, or the instructor. */
export type FollowAuth = { kind: 'attendee'; membership: RoomMembership } | { kind: 'code'; code: string } | { kind: 'key'; key: string };

function followHeaders(auth: FollowAuth): Record<string, string> {
  if (auth.kind === 'attendee') return { [ROOM_ATTENDEE_HEADER]: auth.membership.attendee, [ROOM_SECRET_HEADER]: auth.membership.secret };
  return auth.kind === 'code' ? { [ROOM_CODE_HEADER]: auth.code } : { Authorization: `Bearer ${auth.key}` };
}

/**
 * Read the presenter's follow messages (text, see follow-wire.ts) until the stream ends or `signal`
 * aborts. `onOpen` says the room let this view in; a refusal (a wrong code, a forgotten attendee)
 * comes back as its reason, and trying again will not help.
 */
export async function readFollowStream(auth: FollowAuth, deps: RoomFetchDeps, onMessage: (text: string) => void, onOpen: () => void, signal: AbortSignal): Promise<{ refused: string } | 'ended'> {
  const response = await roomFetch(deps, 'follow', { headers: followHeaders(auth), signal });
  if (response.status === 401 || response.status === 403) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    return { refused: body?.error ?? `HTTP ${response.status}` };
  }
  if (!response.ok || response.body === null) throw new Error(`the room answered HTTP ${response.status}`);
  onOpen();
  await readEvents(response.body, (type, data) => {
    if (type === 'follow') onMessage(data);
  });
  return 'ended';
}

/** The presenter's follow message to every follow view of the room; how many there are. */
export async function postFollow(key: string, text: string, deps: RoomFetchDeps, options: { keepalive?: boolean } = {}): Promise<number> {
  const response = await roomFetch(deps, 'follow', { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: text, keepalive: options.keepalive === true });
  const body = (await response.json().catch(() => null)) as { followers?: unknown; error?: string } | null;
  if (!response.ok || typeof body?.followers !== 'number') throw new Error(body?.error ?? `HTTP ${response.status}`);
  return body.followers;
}

/**
 * Keep a stream open while `signal` lets it: `attempt` reads it until it ends (then again at once
 * after a short pause) or throws (the bridge is away: a growing pause). An attempt
 * that answers 'stop' ends it for good. A pause grows to at most `maxPauseMs`.
 */
export async function keepReading(signal: AbortSignal, attempt: (signal: AbortSignal) => Promise<'again' | 'stop'>, maxPauseMs = 30_000): Promise<void> {
  let pause = 1_000;
  while (!signal.aborted) {
    const began = Date.now();
    try {
      if ((await attempt(signal)) === 'stop') return;
      pause = 1_000;
    } catch {
      if (signal.aborted) return;
      // A stream that lived a while and then broke (a bridge restart) starts the pauses over.
      if (Date.now() - began >= 10_000) pause = 1_000;
    }
    await new Promise<void>((resume) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resume();
      };
      const timer = setTimeout(done, pause);
      signal.addEventListener('abort', done);
    });
    pause = Math.min(maxPauseMs, pause * 2);
  }
}

async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (type: string, data: string) => void): Promise<void> {
  const reader = body.getReader();
  const sse = new SseReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    for (const item of sse.push(value)) if (item.type === 'event') onEvent(item.event.type, item.event.data);
  }
}

function roomFetch(deps: RoomFetchDeps, path: string, init: RequestInit): Promise<Response> {
  const doFetch = deps.fetch ?? fetch;
  const headers: Record<string, string> = { [ROOM_REQUEST_HEADER]: '1', ...(init.headers as Record<string, string> | undefined) };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  return doFetch(`${deps.origin}${ROOM_PATH_PREFIX}${path}`, { ...init, headers, cache: 'no-store', credentials: 'same-origin', redirect: 'error' });
}
