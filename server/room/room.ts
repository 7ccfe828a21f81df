// The workshop room on a shared bridge (`npm start -- --host`): attendees join with a short code
// and a display name, their pages report runs and moves, and the instructor's page (on this
// machine only) reads the whole class. Everything acknowledged is in the SQLite file first.
//
// Private by construction: an attendee's requests name only themselves (their id and secret),
// and nothing an attendee can call returns anything about anyone else.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { encodeSseText } from '../../src/protocol/framing/sse.ts';
import {
  checkDisplayName,
  checkHelpRequest,
  checkRoomReport,
  MAX_FOLLOW_BODY_BYTES,
  MAX_HELP_BODY_BYTES,
  MAX_WRONG_CODES_PER_MINUTE,
  isStationName,
  normalizeJoinCode,
  ROOM_ATTENDEE_HEADER,
  ROOM_CODE_HEADER,
  ROOM_EXERCISES,
  ROOM_PATH_PREFIX,
  ROOM_SECRET_HEADER,
  type RoomInvitation,
  type RoomReport,
  type RoomSnapshot,
} from '../../src/runtime/room-messages.ts';
import { isThisMachine } from '../bridge-page.ts';
import { resultsCsv } from './room-export.ts';
import { progressOverTime } from './room-progress.ts';
import { BodyError, header, readJsonBody, refuseForeignRequest, sendError, sendFile, sendJson, startEventStream } from './room-http.ts';
import type { RoomStore } from './room-store.ts';

/** Reports one request may carry: a page back from a bridge restart sends its backlog in a few. */
export const MAX_REPORTS_PER_REQUEST = 20;
/** A page sends at most one report request per this many ms; closer ones get 429. */
export const DEFAULT_MIN_REPORT_INTERVAL_MS = 250;
/** An attendee may ask for help once per this many ms (each question carries up to 160 KiB). */
export const MIN_HELP_INTERVAL_MS = 10_000;
/** How often the instructor's stream may get a new snapshot, and the attendee streams a keep-alive. */
const SNAPSHOT_EVERY_MS = 500;
const KEEP_ALIVE_MS = 15_000;

export interface RoomOptions {
  store: RoomStore;
  /** The store's file, as printed at start. */
  file: string;
  ownOrigins: () => readonly string[];
  /** The links attendees open, shown on the instructor's page. */
  joinUrls: () => readonly string[];
  log: (line: string) => void;
  /**
   * The shared bridge's token, handed to whoever joins with the code: the code replaces dictating
   * a 32-character link, and grants what the link grants (running the echo servers), no more.
   */
  bridgeToken?: string;
  now?: () => number;
  minReportIntervalMs?: number;
}

export interface Room {
  /** Answers the request if it is for the room (then true). */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  snapshot(): RoomSnapshot;
  readonly joinCode: string;
  readonly joinUrls: () => readonly string[];
  readonly file: string;
  readonly engine: RoomStore['engine'];
  /** Attendees whose page holds a stream now. */
  readonly connectedCount: number;
  close(): void;
}

/** The exported files' name: the room and the day, e.g. room-2026-12-06. */
function exportName(now: number): string {
  return `room-${new Date(now).toISOString().slice(0, 10)}`;
}

export function createRoom(options: RoomOptions): Room {
  const { store, log } = options;
  const now = options.now ?? Date.now;
  const minInterval = options.minReportIntervalMs ?? DEFAULT_MIN_REPORT_INTERVAL_MS;
  /** Open attendee streams, by attendee id (a second tab of the same attendee shares the count). */
  const attendeeStreams = new Map<string, Set<ServerResponse>>();
  const instructorStreams = new Set<ServerResponse>();
  const lastReportRequest = new Map<string, number>();
  const lastHelpRequest = new Map<string, number>();
  /** Follow views reading the presenter, and whose they are (null: a projector, or the instructor's own). */
  const followers = new Map<ServerResponse, string | null>();
  /** The presenter's last follow message as it goes out, so a follow view that opens late sees the stage at once. */
  let lastFollow: string | null = null;
  /** Wrong join codes per remote address in the current minute: the code is short, guessing must stay slow. */
  const wrongCodes = new Map<string, { count: number; since: number }>();
  let snapshotTimer: NodeJS.Timeout | null = null;
  let closed = false;
  let invitations = 0;

  const snapshot = (): RoomSnapshot => {
    const following = new Set(followers.values());
    return {
      code: store.joinCode,
      attendees: store.attendees().map((attendee) => ({ ...attendee, connected: attendeeStreams.has(attendee.attendee), following: following.has(attendee.attendee) })),
      help: store.helpQueue(),
      reports: store.reportCount(),
      followers: followers.size,
    };
  };

  /** Seconds to wait when this address tried too many wrong codes this minute; null when it may try. */
  const codeBlockedFor = (req: IncomingMessage): number | null => {
    const entry = wrongCodes.get(req.socket.remoteAddress ?? '');
    if (entry === undefined || now() - entry.since >= 60_000 || entry.count < MAX_WRONG_CODES_PER_MINUTE) return null;
    return Math.ceil((entry.since + 60_000 - now()) / 1000);
  };
  const wrongCode = (req: IncomingMessage): void => {
    const address = req.socket.remoteAddress ?? '';
    const entry = wrongCodes.get(address);
    if (entry === undefined || now() - entry.since >= 60_000) wrongCodes.set(address, { count: 1, since: now() });
    else entry.count++;
  };
  /** Null when the code is this room's; else the refusal has been sent. */
  const checkCode = (req: IncomingMessage, res: ServerResponse, code: unknown): boolean => {
    const blocked = codeBlockedFor(req);
    if (blocked !== null) {
      sendError(res, 429, `too many wrong join codes: try again in ${blocked} s`, { 'Retry-After': String(blocked) });
      return false;
    }
    if (normalizeJoinCode(code) === store.joinCode) return true;
    wrongCode(req);
    sendError(res, 403, 'that is not this room’s join code');
    return false;
  };

  // Coalesced: 200 attendees reporting every 2 s would otherwise send the grid 100 snapshots a second.
  const changed = (): void => {
    if (closed || instructorStreams.size === 0 || snapshotTimer !== null) return;
    snapshotTimer = setTimeout(() => {
      snapshotTimer = null;
      const text = encodeSseText({ event: 'snapshot', data: JSON.stringify(snapshot()) });
      for (const res of instructorStreams) res.write(text);
    }, SNAPSHOT_EVERY_MS);
  };

  const keepAlive = setInterval(() => {
    const ping = encodeSseText({ comment: 'keep-alive' });
    for (const streams of attendeeStreams.values()) for (const res of streams) res.write(ping);
    for (const res of instructorStreams) res.write(ping);
    for (const res of followers.keys()) res.write(ping);
  }, KEEP_ALIVE_MS);
  keepAlive.unref();

  const isInstructor = (req: IncomingMessage): boolean =>
    isThisMachine(req.socket.remoteAddress) && header(req, 'authorization') === `Bearer ${store.roomKey}`;

  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => Promise<void> | void> = {
    'POST join': async (req, res) => {
      const body = (await readJsonBody(req)) as { code?: unknown; name?: unknown } | null;
      if (!checkCode(req, res, body?.code)) return;
      const name = checkDisplayName(body?.name);
      if (!name.ok) return sendError(res, 400, name.error);
      const attendee = store.join(name.value, now());
      log(`${JSON.stringify(attendee.name)} joined (${store.attendeeCount()} joined, ${attendeeStreams.size} connected)`);
      changed();
      sendJson(res, 200, { attendee: attendee.id, secret: attendee.secret, name: attendee.name, bridgeToken: options.bridgeToken ?? null });
    },
    'POST report': async (req, res) => {
      const body = (await readJsonBody(req)) as { attendee?: unknown; secret?: unknown; reports?: unknown } | null;
      const attendee = store.authenticate(body?.attendee, body?.secret);
      if (attendee === null) return sendError(res, 401, 'unknown attendee: join the room again');
      const received = now();
      const last = lastReportRequest.get(attendee.id);
      if (last !== undefined && received - last < minInterval) {
        return sendError(res, 429, `too many reports: at most one request every ${minInterval} ms`, { 'Retry-After': '1' });
      }
      const raw = body?.reports;
      if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_REPORTS_PER_REQUEST) {
        return sendError(res, 400, `reports must be a list of 1 to ${MAX_REPORTS_PER_REQUEST} reports`);
      }
      // All checked before any is stored: a bad report in the list changes nothing.
      const reports: RoomReport[] = [];
      for (const [index, item] of raw.entries()) {
        const checked = checkRoomReport(item, received);
        if (!checked.ok) return sendError(res, 400, `report ${index + 1}: ${checked.error}`);
        reports.push(checked.value);
      }
      lastReportRequest.set(attendee.id, received);
      const acked = reports.map((report) => {
        const outcome = store.report(attendee.id, report, received);
        return outcome.kind === 'unknown-attendee' ? null : outcome.seq;
      });
      changed();
      sendJson(res, 200, { acked });
    },
    'GET stream': (req, res) => {
      const attendee = store.authenticate(header(req, ROOM_ATTENDEE_HEADER), header(req, ROOM_SECRET_HEADER));
      if (attendee === null) return sendError(res, 401, 'unknown attendee: join the room again');
      startEventStream(res);
      res.write(encodeSseText({ event: 'hello', data: JSON.stringify({ name: attendee.name }) }));
      let streams = attendeeStreams.get(attendee.id);
      const arriving = streams === undefined;
      if (streams === undefined) attendeeStreams.set(attendee.id, (streams = new Set()));
      streams.add(res);
      if (arriving) log(`${JSON.stringify(attendee.name)} connected (${attendeeStreams.size} connected)`);
      changed();
      res.on('close', () => {
        streams.delete(res);
        if (streams.size > 0) return;
        attendeeStreams.delete(attendee.id);
        log(`${JSON.stringify(attendee.name)} left (${attendeeStreams.size} connected)`);
        changed();
      });
    },
    'GET key': (req, res) => {
      if (!isThisMachine(req.socket.remoteAddress)) return sendError(res, 403, 'the room key is only for the instructor’s own machine');
      sendJson(res, 200, { key: store.roomKey, code: store.joinCode, joinUrls: options.joinUrls() });
    },
    'GET snapshot': (req, res) => {
      if (!isInstructor(req)) return sendError(res, 403, 'the room key is missing or wrong');
      sendJson(res, 200, snapshot());
    },
    'POST help': async (req, res) => {
      const body = (await readJsonBody(req, MAX_HELP_BODY_BYTES)) as { attendee?: unknown; secret?: unknown; request?: unknown } | null;
      const attendee = store.authenticate(body?.attendee, body?.secret);
      if (attendee === null) return sendError(res, 401, 'unknown attendee: join the room again');
      const request = checkHelpRequest(body?.request);
      if (!request.ok) return sendError(res, 400, request.error);
      const asked = now();
      const last = lastHelpRequest.get(attendee.id);
      if (last !== undefined && asked - last < MIN_HELP_INTERVAL_MS) {
        const seconds = String(Math.ceil((last + MIN_HELP_INTERVAL_MS - asked) / 1000));
        return sendError(res, 429, `you asked a moment ago: ask again in ${seconds} s`, { 'Retry-After': seconds });
      }
      lastHelpRequest.set(attendee.id, asked);
      const id = store.askForHelp(attendee.id, request.value, asked);
      const position = store.helpQueue().findIndex((item) => item.id === id) + 1;
      log(`${JSON.stringify(attendee.name)} asks for help with exercise ${request.value.exercise} (${position} in the queue)`);
      changed();
      sendJson(res, 200, { id, position });
    },
    'GET help': (req, res) => {
      if (!isInstructor(req)) return sendError(res, 403, 'the room key is missing or wrong');
      const id = Number(new URL(req.url ?? '/', 'http://room').searchParams.get('id'));
      const request = Number.isSafeInteger(id) ? store.helpRequest(id) : undefined;
      if (request === undefined) return sendError(res, 404, 'no such question');
      sendJson(res, 200, request);
    },
    'POST help-done': async (req, res) => {
      if (!isInstructor(req)) return sendError(res, 403, 'the room key is missing or wrong');
      const body = (await readJsonBody(req)) as { id?: unknown } | null;
      if (!Number.isSafeInteger(body?.id) || !store.closeHelp(body!.id as number)) return sendError(res, 404, 'no such open question');
      changed();
      sendJson(res, 200, { closed: body!.id });
    },
    'POST send': async (req, res) => {
      if (!isInstructor(req)) return sendError(res, 403, 'the room key is missing or wrong');
      const body = (await readJsonBody(req)) as { station?: unknown } | null;
      if (!isStationName(body?.station)) return sendError(res, 400, 'station must be a short lower-case name');
      const invitation: RoomInvitation = { id: ++invitations, station: body.station };
      const text = encodeSseText({ event: 'invite', data: JSON.stringify(invitation) });
      let reached = 0;
      for (const streams of attendeeStreams.values()) {
        reached++;
        for (const stream of streams) stream.write(text);
      }
      log(`sent everyone to ${invitation.station} (${reached} connected)`);
      sendJson(res, 200, { reached });
    },
    'GET progress': (req, res) => {
      if (!isInstructor(req)) return sendError(res, 403, 'the room key is missing or wrong');
      sendJson(res, 200, progressOverTime({ attendees: store.attendees(), runs: store.runs(), exercises: ROOM_EXERCISES, now: now() }));
    },
    'GET export.csv': (req, res) => {
      if (!isInstructor(req)) return sendError(res, 403, 'the room key is missing or wrong');
      sendFile(res, resultsCsv(store.attendees()), 'text/csv; charset=utf-8', `${exportName(now())}.csv`);
    },
    'GET export.json': (req, res) => {
      if (!isInstructor(req)) return sendError(res, 403, 'the room key is missing or wrong');
      const room = { format: 'mcp-playground-room', version: 1, exportedAt: new Date(now()).toISOString(), code: store.joinCode, attendees: store.attendees(), reports: store.allReports() };
      sendFile(res, `${JSON.stringify(room, null, 2)}\n`, 'application/json; charset=utf-8', `${exportName(now())}.json`);
    },
    'POST follow': async (req, res) => {
      if (!isInstructor(req)) return sendError(res, 403, 'the room key is missing or wrong');
      const body = (await readJsonBody(req, MAX_FOLLOW_BODY_BYTES)) as { type?: unknown; protocol?: unknown } | null;
      // The shape is the follow view's to check (decodeFollowMessage): it renders nothing else.
      // The room only relays, and keeps the last state for follow views that open later.
      if (body === null || typeof body !== 'object' || typeof body.protocol !== 'number' || !['state', 'http-state', 'bye'].includes(body.type as string)) {
        return sendError(res, 400, 'not a follow message');
      }
      const text = encodeSseText({ event: 'follow', data: JSON.stringify(body) });
      lastFollow = body.type === 'bye' ? null : text;
      for (const stream of followers.keys()) stream.write(text);
      sendJson(res, 200, { followers: followers.size });
    },
    'GET follow': (req, res) => {
      // A joined attendee's page, a projector with the join code, or the instructor's own machine.
      let who: string | null = null;
      if (header(req, ROOM_ATTENDEE_HEADER) !== undefined) {
        const attendee = store.authenticate(header(req, ROOM_ATTENDEE_HEADER), header(req, ROOM_SECRET_HEADER));
        if (attendee === null) return sendError(res, 401, 'unknown attendee: join the room again');
        who = attendee.id;
      } else if (header(req, ROOM_CODE_HEADER) !== undefined) {
        if (!checkCode(req, res, header(req, ROOM_CODE_HEADER))) return;
      } else if (!isInstructor(req)) return sendError(res, 403, 'follow with the join code');
      startEventStream(res);
      if (lastFollow !== null) res.write(lastFollow);
      followers.set(res, who);
      log(`a follow view opened (${followers.size} following the presenter)`);
      changed();
      res.on('close', () => {
        followers.delete(res);
        changed();
      });
    },
    'GET events': (req, res) => {
      if (!isInstructor(req)) return sendError(res, 403, 'the room key is missing or wrong');
      startEventStream(res);
      res.write(encodeSseText({ event: 'snapshot', data: JSON.stringify(snapshot()) }));
      instructorStreams.add(res);
      res.on('close', () => instructorStreams.delete(res));
    },
  };

  return {
    handle(req, res) {
      const path = (req.url ?? '/').split(/[?#]/, 1)[0] ?? '';
      if (!path.startsWith(ROOM_PATH_PREFIX)) return false;
      const route = routes[`${req.method ?? ''} ${path.slice(ROOM_PATH_PREFIX.length)}`];
      const refused = refuseForeignRequest(req, options.ownOrigins());
      if (refused !== null) sendError(res, 403, refused);
      else if (route === undefined) sendError(res, 404, 'no such room request');
      else {
        Promise.resolve()
          .then(() => route(req, res))
          .catch((error: unknown) => {
            if (res.headersSent) return res.destroy();
            if (error instanceof BodyError) sendError(res, error.status, error.message);
            else {
              log(`room request failed: ${error instanceof Error ? error.message : String(error)}`);
              sendError(res, 500, 'the room could not store that');
            }
          });
      }
      return true;
    },
    snapshot,
    joinCode: store.joinCode,
    joinUrls: options.joinUrls,
    file: options.file,
    engine: store.engine,
    get connectedCount() {
      return attendeeStreams.size;
    },
    close() {
      closed = true;
      clearInterval(keepAlive);
      if (snapshotTimer !== null) clearTimeout(snapshotTimer);
      for (const streams of attendeeStreams.values()) for (const res of streams) res.end();
      for (const res of instructorStreams) res.end();
      for (const res of followers.keys()) res.end();
      store.close();
    },
  };
}
