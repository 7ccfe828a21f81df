// The room's HTTP side on a real loopback server: joining, reporting, the instructor's snapshot and
// live stream, and every way a request is refused without changing what the room holds.

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SseReader } from '../../src/protocol/framing/sse.ts';
import { readCatalogueFromDisk } from '../../tools/catalogue-node.ts';
import { MAX_ROOM_BODY_BYTES, MAX_WRONG_CODES_PER_MINUTE, ROOM_EXERCISES, ROOM_ATTENDEE_HEADER, ROOM_CODE_HEADER, ROOM_REQUEST_HEADER, ROOM_SECRET_HEADER, type RoomProgress, type RoomSnapshot } from '../../src/runtime/room-messages.ts';
import { joinRoom } from '../../src/app/room/room-client.ts';
import { createRoom, type Room } from './room.ts';
import { RoomStore } from './room-store.ts';
import { openRoomDatabase } from './sqlite.ts';

interface Running {
  base: string;
  room: Room;
  store: RoomStore;
  logs: string[];
  server: Server;
}

const running: Running[] = [];
afterEach(async () => {
  for (const { server, room } of running.splice(0)) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
    room.close();
  }
});

async function startRoom(options: { minReportIntervalMs?: number; now?: () => number } = {}): Promise<Running> {
  const store = new RoomStore(openRoomDatabase(':memory:'));
  const logs: string[] = [];
  let port = 0;
  const room = createRoom({
    store,
    file: ':memory:',
    ownOrigins: () => [`http://127.0.0.1:${port}`],
    joinUrls: () => [`http://127.0.0.1:${port}/#join`],
    log: (line) => logs.push(line),
    bridgeToken: 'the-bridge-token',
    minReportIntervalMs: options.minReportIntervalMs ?? 0,
    now: options.now,
  });
  const server = createServer((req, res) => {
    if (!room.handle(req, res)) res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
  const started = { base: `http://127.0.0.1:${port}`, room, store, logs, server };
  running.push(started);
  return started;
}

const ROOM = { [ROOM_REQUEST_HEADER]: '1' };

function post(base: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/__room/${path}`, {
    method: 'POST',
    headers: { ...ROOM, 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function join(base: string, code: string, name: string): Promise<{ attendee: string; secret: string; name: string }> {
  const response = await post(base, 'join', { code, name });
  expect(response.status).toBe(200);
  return (await response.json()) as { attendee: string; secret: string; name: string };
}

async function instructorKey(base: string): Promise<string> {
  const response = await fetch(`${base}/__room/key`, { headers: ROOM });
  expect(response.status).toBe(200);
  return ((await response.json()) as { key: string }).key;
}

it("knows every exercise on the learner's path (a report for the last one must be taken)", () => {
  expect(ROOM_EXERCISES).toBe(readCatalogueFromDisk().exercises.length);
});

describe('the workshop room over HTTP', () => {
  it('lets an attendee join by the code typed loosely, and logs the join with the count', async () => {
    const { base, store, logs } = await startRoom();
    const typed = `${store.joinCode.slice(0, 3).toLowerCase()}-${store.joinCode.slice(3)}`;
    const ada = await join(base, typed, '  Ada  ');
    expect(ada).toMatchObject({ name: 'Ada', bridgeToken: 'the-bridge-token' });
    expect(store.authenticate(ada.attendee, ada.secret)?.name).toBe('Ada');
    expect(logs).toEqual(['"Ada" joined (1 joined, 0 connected)']);
  });

  it('refuses a wrong code and a bad name with a clear error, and adds nobody', async () => {
    const { base, store } = await startRoom();
    const wrong = await post(base, 'join', { code: 'AAAAAA', name: 'Ada' });
    expect([wrong.status, await wrong.json()]).toEqual([403, { error: 'that is not this room’s join code' }]);
    for (const [name, error] of [
      ['', 'the name is empty'],
      ['x'.repeat(41), 'the name is longer than 40 characters'],
      ['Ada\u202eevil', 'the name holds control characters'],
      [42, 'the name must be text'],
    ] as const) {
      const response = await post(base, 'join', { code: store.joinCode, name });
      expect([response.status, await response.json()]).toEqual([400, { error }]);
    }
    expect(store.attendeeCount()).toBe(0);
  });

  it('acknowledges reports, counts a resent one once, and shows them to the instructor only', async () => {
    const { base, store } = await startRoom();
    const ada = await join(base, store.joinCode, 'Ada');
    const reports = [
      { seq: 1, at: 1, station: 'exercise-1', run: { exercise: 1, passed: 10, total: 37 } },
      { seq: 2, at: 2, station: 'exercise-1', run: { exercise: 1, passed: 37, total: 37 }, hints: { '1': 2 } },
    ];
    const first = await post(base, 'report', { attendee: ada.attendee, secret: ada.secret, reports });
    expect([first.status, await first.json()]).toEqual([200, { acked: [1, 2] }]);
    const again = await post(base, 'report', { attendee: ada.attendee, secret: ada.secret, reports });
    expect([again.status, await again.json()]).toEqual([200, { acked: [1, 2] }]);

    const asAttendee = await fetch(`${base}/__room/snapshot`, { headers: { ...ROOM, Authorization: `Bearer ${ada.secret}` } });
    expect(asAttendee.status).toBe(403);
    const key = await instructorKey(base);
    const snapshot = (await (await fetch(`${base}/__room/snapshot`, { headers: { ...ROOM, Authorization: `Bearer ${key}` } })).json()) as RoomSnapshot;
    expect(snapshot.reports).toBe(2);
    expect(snapshot.attendees).toHaveLength(1);
    expect(snapshot.attendees[0]).toMatchObject({ name: 'Ada', station: 'exercise-1', connected: false, exercises: { '1': { passed: 37, total: 37, hints: 2, referenceUsed: false } } });

    // The chart's data, from the stored reports: Ada joined, then completed exercise 1 (once).
    expect((await fetch(`${base}/__room/progress`, { headers: { ...ROOM, Authorization: `Bearer ${ada.secret}` } })).status).toBe(403);
    const progress = (await (await fetch(`${base}/__room/progress`, { headers: { ...ROOM, Authorization: `Bearer ${key}` } })).json()) as RoomProgress;
    expect(progress.joined.at(-1)).toBe(1);
    expect(progress.completed.map((line) => line.at(-1))).toEqual([1, ...Array<number>(ROOM_EXERCISES - 1).fill(0)]);
    expect(progress.times.at(-1)).toBeGreaterThanOrEqual(progress.times[0]!);
  });

  it('refuses a malformed, oversized, unauthenticated or too frequent report, and changes nothing', async () => {
    let clock = 1_000;
    const { base, store } = await startRoom({ minReportIntervalMs: 250, now: () => clock });
    const ada = await join(base, store.joinCode, 'Ada');
    const as = { attendee: ada.attendee, secret: ada.secret };
    const cases: [unknown, number, string][] = [
      [{ ...as, reports: [{ seq: 1, at: 1, station: 'exercise-1' }, { seq: 2, at: 2, station: 'Exercise 1!' }] }, 400, 'report 2: station must be a short lower-case name'],
      [{ ...as, reports: [{ seq: 1, at: 1, station: 'x', run: { exercise: 9, passed: 1, total: 1 } }] }, 400, 'report 1: run.exercise must be 1..8'],
      [{ ...as, reports: [{ seq: 1, at: 1, station: 'x', run: { exercise: 1, passed: 5, total: 1 } }] }, 400, 'report 1: run.passed and run.total must be counts, passed ≤ total'],
      [{ ...as, reports: [] }, 400, 'reports must be a list of 1 to 20 reports'],
      [{ attendee: ada.attendee, secret: 'guess', reports: [{ seq: 1, at: 1, station: 'x' }] }, 401, 'unknown attendee: join the room again'],
      ['{not json', 400, 'the body is not JSON'],
      [{ ...as, reports: [{ seq: 1, at: 1, station: 'x', pad: 'x'.repeat(MAX_ROOM_BODY_BYTES) }] }, 413, `the body is over ${MAX_ROOM_BODY_BYTES} bytes`],
    ];
    for (const [body, status, error] of cases) {
      const response = await post(base, 'report', body);
      expect([response.status, await response.json()]).toEqual([status, { error }]);
    }
    expect(store.reportCount()).toBe(0);

    const ok = await post(base, 'report', { ...as, reports: [{ seq: 1, at: 1, station: 'x' }] });
    expect(ok.status).toBe(200);
    clock += 100;
    const tooSoon = await post(base, 'report', { ...as, reports: [{ seq: 2, at: 2, station: 'x' }] });
    expect([tooSoon.status, tooSoon.headers.get('retry-after'), await tooSoon.json()]).toEqual([429, '1', { error: 'too many reports: at most one request every 250 ms' }]);
    clock += 250;
    expect((await post(base, 'report', { ...as, reports: [{ seq: 2, at: 2, station: 'x' }] })).status).toBe(200);
    expect(store.reportCount()).toBe(2);
  });

  it('answers no request without the room header or from another origin or host name', async () => {
    const { base, store } = await startRoom();
    const body = JSON.stringify({ code: store.joinCode, name: 'Mallory' });
    const noHeader = await fetch(`${base}/__room/join`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    const foreign = await post(base, 'join', body, { Origin: 'http://evil.example' });
    const crossSite = await post(base, 'join', body, { 'Sec-Fetch-Site': 'cross-site' });
    expect([noHeader.status, foreign.status, crossSite.status]).toEqual([403, 403, 403]);
    expect(await foreign.json()).toEqual({ error: 'origin not allowed' });
    expect(store.attendeeCount()).toBe(0);
    const unknown = await fetch(`${base}/__room/everything`, { headers: ROOM });
    expect(unknown.status).toBe(404);
  });

  it('streams to the instructor as attendees connect, report and leave, and logs who left', async () => {
    const { base, store, logs } = await startRoom();
    const key = await instructorKey(base);
    const grid = await fetch(`${base}/__room/events`, { headers: { ...ROOM, Authorization: `Bearer ${key}` } });
    expect(grid.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const snapshots = readSnapshots(grid);
    expect((await snapshots.next()).attendees).toEqual([]);

    const ada = await join(base, store.joinCode, 'Ada');
    const stream = new AbortController();
    const attendee = await fetch(`${base}/__room/stream`, { headers: { ...ROOM, [ROOM_ATTENDEE_HEADER]: ada.attendee, [ROOM_SECRET_HEADER]: ada.secret }, signal: stream.signal });
    expect(attendee.status).toBe(200);
    await post(base, 'report', { attendee: ada.attendee, secret: ada.secret, reports: [{ seq: 1, at: 5, station: 'exercise-2', run: { exercise: 2, passed: 4, total: 9 } }] });
    const seen = await snapshots.until((snapshot) => snapshot.attendees[0]?.connected === true && snapshot.reports === 1);
    expect(seen.attendees[0]).toMatchObject({ name: 'Ada', station: 'exercise-2', exercises: { '2': { passed: 4, total: 9 } } });

    stream.abort();
    await snapshots.until((snapshot) => snapshot.attendees[0]?.connected === false);
    expect(logs).toEqual(['"Ada" joined (1 joined, 0 connected)', '"Ada" connected (1 connected)', '"Ada" left (0 connected)']);
    snapshots.stop();
  });

  it('exports results as CSV, one row per attendee × exercise, and the whole room as JSON, to the instructor only', async () => {
    let clock = Date.parse('2026-12-06T09:00:00Z');
    const { base, store } = await startRoom({ now: () => clock });
    const ada = await join(base, store.joinCode, 'Ada, "the first"');
    clock += 60_000;
    const mallory = await join(base, store.joinCode, '=HYPERLINK("http://evil")');
    await post(base, 'report', { attendee: ada.attendee, secret: ada.secret, reports: [{ seq: 1, at: clock, station: 'exercise-2', run: { exercise: 1, passed: 37, total: 37 }, hints: { '2': 1 }, referenceUsed: [1] }] });
    const key = await instructorKey(base);
    const asAttendee = await fetch(`${base}/__room/export.csv`, { headers: { ...ROOM, Authorization: `Bearer ${ada.secret}` } });
    expect(asAttendee.status).toBe(403);

    const csv = await fetch(`${base}/__room/export.csv`, { headers: { ...ROOM, Authorization: `Bearer ${key}` } });
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="room-2026-12-06.csv"');
    const lines = (await csv.text()).split('\r\n');
    expect(lines[0]).toBe('name,attendee,joined_at,exercise,passed,total,completed,hints,reference_used,station,last_run_at');
    expect(lines).toHaveLength(1 + 2 * ROOM_EXERCISES + 1); // the header, a row per attendee × exercise, and the last line break
    expect(lines[1]).toBe(`"Ada, ""the first""",${ada.attendee},2026-12-06T09:00:00.000Z,1,37,37,yes,0,yes,exercise-2,2026-12-06T09:01:00.000Z`);
    expect(lines[2]).toBe(`"Ada, ""the first""",${ada.attendee},2026-12-06T09:00:00.000Z,2,0,0,no,1,no,exercise-2,2026-12-06T09:01:00.000Z`);
    // A name that looks like a formula stays text in a spreadsheet.
    expect(lines[1 + ROOM_EXERCISES]).toBe(`"'=HYPERLINK(""http://evil"")",${mallory.attendee},2026-12-06T09:01:00.000Z,1,0,0,no,0,no,,`);

    const json = await fetch(`${base}/__room/export.json`, { headers: { ...ROOM, Authorization: `Bearer ${key}` } });
    const text = await json.text();
    const room = JSON.parse(text) as { code: string; attendees: unknown[]; reports: { attendee: string; seq: number; report: unknown }[] };
    expect(room.code).toBe(store.joinCode);
    expect(room.attendees).toHaveLength(2);
    expect(room.reports).toEqual([expect.objectContaining({ attendee: ada.attendee, seq: 1, report: expect.objectContaining({ station: 'exercise-2' }) })]);
    for (const secret of [ada.secret, mallory.secret, key]) expect(text).not.toContain(secret);
    expect(text).not.toContain('secret');
  });

  it('sends every connected attendee the instructor’s invitation, and only the instructor may send one', async () => {
    const { base, store, logs } = await startRoom();
    const ada = await join(base, store.joinCode, 'Ada');
    const stream = await fetch(`${base}/__room/stream`, { headers: { ...ROOM, [ROOM_ATTENDEE_HEADER]: ada.attendee, [ROOM_SECRET_HEADER]: ada.secret } });
    const events = readEvents(stream);
    expect(await events.next()).toEqual({ type: 'hello', data: { name: 'Ada' } });
    const key = await instructorKey(base);
    const send = (station: unknown, auth: string) => post(base, 'send', { station }, { Authorization: `Bearer ${auth}` });
    expect((await send('exercise-3', ada.secret)).status).toBe(403);
    const bad = await send('../../etc', key);
    expect([bad.status, await bad.json()]).toEqual([400, { error: 'station must be a short lower-case name' }]);
    const sent = await send('exercise-3', key);
    expect(await sent.json()).toEqual({ reached: 1 });
    expect(await events.next()).toEqual({ type: 'invite', data: { id: 1, station: 'exercise-3' } });
    expect(logs).toContain('sent everyone to exercise-3 (1 connected)');
    events.stop();
  });

  it('queues an attendee’s question with their file and failures for the instructor, one open question each', async () => {
    let clock = 1_000_000;
    const { base, store, logs } = await startRoom({ now: () => clock });
    const ada = await join(base, store.joinCode, 'Ada');
    // The frame the question is about: what the attendee's byte inspector showed ("{}\n", NDJSON, in two chunks).
    const frame = { direction: 's2c', framing: 'ndjson', bytes: 'e30K', streamOffset: 40, chunks: [{ index: 3, start: 0, end: 1, chunkLength: 1, t: null }, { index: 4, start: 1, end: 3, chunkLength: 9, t: 12.5 }], kind: 'invalid', method: null, id: null, value: {}, problem: 'not a JSON-RPC message' };
    const ask = (code: string) =>
      post(base, 'help', {
        attendee: ada.attendee,
        secret: ada.secret,
        request: { exercise: 2, file: 'frames.ts', code, results: [{ name: 'reads a split frame', status: 'fail', message: 'expected 1 message, got 0' }, { name: 'encodes', status: 'pass' }], frame },
      });
    expect(await (await ask('export class FrameReader {}')).json()).toEqual({ id: 1, position: 1 });
    clock += 9_000;
    const tooSoon = await ask('export class FrameReader { push() {} }');
    expect([tooSoon.status, await tooSoon.json()]).toEqual([429, { error: 'you asked a moment ago: ask again in 1 s' }]);
    clock += 1_000;
    expect(await (await ask('export class FrameReader { push() {} }')).json()).toEqual({ id: 2, position: 1 });
    expect(logs).toContain('"Ada" asks for help with exercise 2 (1 in the queue)');
    const bad = await post(base, 'help', { attendee: ada.attendee, secret: ada.secret, request: { exercise: 2, file: '../../x', code: '', results: [] } });
    expect([bad.status, await bad.json()]).toEqual([400, { error: 'file must be a file name' }]);
    for (const broken of [{ ...frame, bytes: 'not base64!' }, { ...frame, framing: 'sse' }, { ...frame, chunks: [{ index: -1, start: 0, end: 1, chunkLength: 1, t: null }] }, { ...frame, bytes: 'A'.repeat(70_000) }]) {
      const refused = await post(base, 'help', { attendee: ada.attendee, secret: ada.secret, request: { exercise: 2, file: 'frames.ts', code: '', results: [], frame: broken } });
      expect([refused.status, await refused.json()]).toEqual([400, { error: 'the frame must be one the byte inspector showed (at most 16 KiB)' }]);
    }

    const key = await instructorKey(base);
    const auth = { Authorization: `Bearer ${key}` };
    const snapshot = (await (await fetch(`${base}/__room/snapshot`, { headers: { ...ROOM, ...auth } })).json()) as RoomSnapshot;
    expect(snapshot.help).toEqual([{ id: 2, attendee: ada.attendee, name: 'Ada', at: expect.any(Number), exercise: 2, file: 'frames.ts', failing: 1 }]);
    expect((await fetch(`${base}/__room/help?id=2`, { headers: { ...ROOM, Authorization: `Bearer ${ada.secret}` } })).status).toBe(403);
    const question = await (await fetch(`${base}/__room/help?id=2`, { headers: { ...ROOM, ...auth } })).json();
    expect(question).toMatchObject({ id: 2, name: 'Ada', exercise: 2, file: 'frames.ts', code: 'export class FrameReader { push() {} }', open: true, results: [{ name: 'reads a split frame', status: 'fail', message: 'expected 1 message, got 0' }, { name: 'encodes', status: 'pass' }], frame });
    expect((await post(base, 'help-done', { id: 2 }, auth)).status).toBe(200);
    expect((await post(base, 'help-done', { id: 2 }, auth)).status).toBe(404);
    expect(store.helpQueue()).toEqual([]);
  });

  it('keeps the room key from attendees: a wrong key gets no stream', async () => {
    const { base } = await startRoom();
    const response = await fetch(`${base}/__room/events`, { headers: { ...ROOM, Authorization: 'Bearer nope' } });
    expect(response.status).toBe(403);
  });
});

describe('follow mode over the room', () => {
  const state = (n: number) => ({ type: 'state', protocol: 1, presenter: 'p1', state: { n } });

  it('relays the presenter’s stage to a projector with the code, a joined attendee and the instructor, and the last one to a late view', async () => {
    const { base, room } = await startRoom();
    const key = await instructorKey(base);
    const auth = { Authorization: `Bearer ${key}` };
    // Only the instructor posts, and only a follow message.
    expect((await post(base, 'follow', state(1))).status).toBe(403);
    expect((await post(base, 'follow', { type: 'hello', protocol: 1 }, auth)).status).toBe(400);
    expect(await (await post(base, 'follow', state(1), auth)).json()).toEqual({ followers: 0 });

    const projector = readEvents(await fetch(`${base}/__room/follow`, { headers: { ...ROOM, [ROOM_CODE_HEADER]: room.joinCode.toLowerCase() } }));
    expect(await projector.next()).toEqual({ type: 'follow', data: state(1) });
    const ada = await join(base, room.joinCode, 'Ada');
    const laptop = readEvents(await fetch(`${base}/__room/follow`, { headers: { ...ROOM, [ROOM_ATTENDEE_HEADER]: ada.attendee, [ROOM_SECRET_HEADER]: ada.secret } }));
    expect(await laptop.next()).toEqual({ type: 'follow', data: state(1) });
    const own = readEvents(await fetch(`${base}/__room/follow`, { headers: { ...ROOM, ...auth } }));
    expect(await own.next()).toEqual({ type: 'follow', data: state(1) });

    expect(await (await post(base, 'follow', state(2), auth)).json()).toEqual({ followers: 3 });
    for (const view of [projector, laptop, own]) expect(await view.next()).toEqual({ type: 'follow', data: state(2) });
    const snapshot = room.snapshot();
    expect(snapshot.followers).toBe(3);
    expect(snapshot.attendees.map((attendee) => [attendee.name, attendee.following, attendee.connected])).toEqual([['Ada', true, false]]);

    // The presenter left: views hear it, and a view that opens now waits for the next presenter.
    await post(base, 'follow', { type: 'bye', protocol: 1, presenter: 'p1' }, auth);
    expect(await projector.next()).toEqual({ type: 'follow', data: { type: 'bye', protocol: 1, presenter: 'p1' } });
    const late = readEvents(await fetch(`${base}/__room/follow`, { headers: { ...ROOM, [ROOM_CODE_HEADER]: room.joinCode } }));
    await post(base, 'follow', state(3), auth);
    expect(await late.next()).toEqual({ type: 'follow', data: state(3) });
    for (const view of [projector, laptop, own, late]) view.stop();
  });

  it('lets no one follow without the code, an attendee’s secret or the key', async () => {
    const { base, room } = await startRoom();
    const ada = await join(base, room.joinCode, 'Ada');
    const status = async (headers: Record<string, string>) => (await fetch(`${base}/__room/follow`, { headers: { ...ROOM, ...headers } })).status;
    expect(await status({})).toBe(403);
    expect(await status({ [ROOM_CODE_HEADER]: 'ZZZZZZ' })).toBe(403);
    expect(await status({ [ROOM_ATTENDEE_HEADER]: ada.attendee, [ROOM_SECRET_HEADER]: 'wrong' })).toBe(401);
    expect(await status({ Authorization: 'Bearer wrong' })).toBe(403);
    expect(room.snapshot().followers).toBe(0);
  });

  it('makes an address that tried too many wrong codes wait a minute, even with the right one', async () => {
    let clock = 1_000_000;
    const { base, room, store } = await startRoom({ now: () => clock });
    for (let attempt = 0; attempt < MAX_WRONG_CODES_PER_MINUTE; attempt++) expect((await post(base, 'join', { code: 'ZZZZZZ', name: 'Eve' })).status).toBe(403);
    const blocked = await post(base, 'join', { code: room.joinCode, name: 'Eve' });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe('60');
    expect(((await blocked.json()) as { error: string }).error).toMatch(/too many wrong join codes/);
    expect((await fetch(`${base}/__room/follow`, { headers: { ...ROOM, [ROOM_CODE_HEADER]: room.joinCode } })).status).toBe(429);
    // The page's join form says what happened and how long to wait.
    expect(await joinRoom(room.joinCode, 'Eve', { origin: base })).toEqual({ ok: false, reason: 'too-many', detail: '60' });
    expect(store.attendeeCount()).toBe(0);
    clock += 60_000;
    expect((await post(base, 'join', { code: room.joinCode, name: 'Eve' })).status).toBe(200);
  });
});

/** The instructor stream's snapshots, read with the project's own SSE reader. */
function readSnapshots(response: Response) {
  const reader = response.body!.getReader();
  const sse = new SseReader();
  const queue: RoomSnapshot[] = [];
  const next = async (): Promise<RoomSnapshot> => {
    while (queue.length === 0) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the instructor stream ended');
      for (const item of sse.push(value)) if (item.type === 'event' && item.event.type === 'snapshot') queue.push(JSON.parse(item.event.data) as RoomSnapshot);
    }
    return queue.shift()!;
  };
  return {
    next,
    async until(test: (snapshot: RoomSnapshot) => boolean): Promise<RoomSnapshot> {
      for (;;) {
        const snapshot = await next();
        if (test(snapshot)) return snapshot;
      }
    },
    stop: () => void reader.cancel(),
  };
}

/** Any event stream's events, type and parsed data, read with the project's own SSE reader. */
function readEvents(response: Response) {
  const reader = response.body!.getReader();
  const sse = new SseReader();
  const queue: { type: string; data: unknown }[] = [];
  return {
    async next(): Promise<{ type: string; data: unknown }> {
      while (queue.length === 0) {
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        for (const item of sse.push(value)) if (item.type === 'event') queue.push({ type: item.event.type, data: JSON.parse(item.event.data) as unknown });
      }
      return queue.shift()!;
    },
    stop: () => void reader.cancel(),
  };
}
