// The room's SQLite store on every engine this Node has (node-sqlite3-wasm always; node:sqlite on
// Node 22.5+, which the Node 24 pass of `npm test` runs): what is acknowledged is kept across a
// reopen, a report sent twice counts once, and progress adds up the way the grid reads it.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH, normalizeJoinCode } from '../../src/runtime/room-messages.ts';
import { csvField } from './room-export.ts';
import { defaultRoomFile } from './room-file.ts';
import { RoomStore } from './room-store.ts';
import { openRoomDatabase, type RoomDatabase } from './sqlite.ts';

const hasNodeSqlite = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.('node:sqlite') !== undefined;
const engines: RoomDatabase['engine'][] = hasNodeSqlite ? ['node-sqlite3-wasm', 'node:sqlite'] : ['node-sqlite3-wasm'];

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function roomFile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'room-store-'));
  folders.push(folder);
  return join(folder, 'room.sqlite');
}

describe.each(engines)('room store on %s', (engine) => {
  it('keeps the join code, the key, attendees and every acknowledged report across a reopen', () => {
    const file = roomFile();
    const first = new RoomStore(openRoomDatabase(file, engine));
    expect(first.engine).toBe(engine);
    expect(normalizeJoinCode(first.joinCode)).toBe(first.joinCode);
    expect(first.joinCode).toHaveLength(JOIN_CODE_LENGTH);
    expect(first.roomKey).not.toContain(first.joinCode);
    const ada = first.join('Ada', 1_000);
    expect(first.report(ada.id, { seq: 1, at: 1_100, station: 'exercise-1', run: { exercise: 1, passed: 3, total: 37 } }, 1_100)).toEqual({ kind: 'stored', seq: 1 });
    first.close();

    const again = new RoomStore(openRoomDatabase(file, engine));
    expect([again.joinCode, again.roomKey]).toEqual([first.joinCode, first.roomKey]);
    expect(again.authenticate(ada.id, ada.secret)).toEqual({ id: ada.id, name: 'Ada', joinedAt: 1_000 });
    expect(again.authenticate(ada.id, `${ada.secret}x`)).toBeNull();
    expect(again.reportCount()).toBe(1);
    expect(again.attendees()[0]?.exercises['1']).toEqual({ passed: 3, total: 37, hints: 0, referenceUsed: false });
    again.close();
  });

  it('opens a room whose last bridge was killed (its stale lock removed), and refuses a second live bridge', () => {
    const file = roomFile();
    const first = new RoomStore(openRoomDatabase(file, engine));
    const ada = first.join('Ada', 0);
    first.close();
    // What a SIGKILLed bridge leaves: its pid file naming a process that is gone, and (with
    // node-sqlite3-wasm) the lock directory it held.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(`${file}.pid`, `${gone}\n`);
    mkdirSync(`${file}.lock`);
    const again = new RoomStore(openRoomDatabase(file, engine));
    expect(again.authenticate(ada.id, ada.secret)?.name).toBe('Ada');
    expect(again.report(ada.id, { seq: 1, at: 1, station: 'exercise-1' }, 1).kind).toBe('stored');
    again.close();
    expect(existsSync(`${file}.pid`)).toBe(false);

    // A live process that is not this one owns it: a second bridge on the same room.
    writeFileSync(`${file}.pid`, `${process.ppid}\n`);
    expect(() => openRoomDatabase(file, engine)).toThrow(`the room file ${file} is in use by another bridge (process ${process.ppid})`);
  });

  it('counts a report sent twice once, and only the newest report moves the station', () => {
    const store = new RoomStore(openRoomDatabase(':memory:', engine));
    const { id } = store.join('李雷', 0);
    expect(store.report(id, { seq: 2, at: 200, station: 'exercise-2' }, 300).kind).toBe('stored');
    // seq 1 arrives late (it was queued while the bridge was away): stored, but the station stays.
    expect(store.report(id, { seq: 1, at: 100, station: 'exercise-1', run: { exercise: 1, passed: 37, total: 37 } }, 300).kind).toBe('stored');
    expect(store.report(id, { seq: 2, at: 200, station: 'exercise-2' }, 400)).toEqual({ kind: 'duplicate', seq: 2 });
    expect(store.reportCount(id)).toBe(2);
    const [view] = store.attendees();
    expect(view).toMatchObject({ name: '李雷', station: 'exercise-2', stationSince: 200, lastRunAt: 100, lastNewPassAt: 100 });
    expect(view?.exercises['1']).toEqual({ passed: 37, total: 37, hints: 0, referenceUsed: false });
    store.close();
  });

  it('moves "last new pass" only when a run passes more tests than ever before, and keeps hints and reference use', () => {
    const store = new RoomStore(openRoomDatabase(':memory:', engine));
    const { id } = store.join('Grace', 0);
    store.report(id, { seq: 1, at: 10, station: 'exercise-3', run: { exercise: 3, passed: 5, total: 20 }, hints: { '3': 1 } }, 10);
    store.report(id, { seq: 2, at: 20, station: 'exercise-3', run: { exercise: 3, passed: 2, total: 20 }, hints: { '3': 2 } }, 20);
    store.report(id, { seq: 3, at: 30, station: 'exercise-3', run: { exercise: 3, passed: 5, total: 20 }, referenceUsed: [3] }, 30);
    const [view] = store.attendees();
    expect(view).toMatchObject({ lastRunAt: 30, lastNewPassAt: 10, stationSince: 10 });
    expect(view?.exercises['3']).toEqual({ passed: 5, total: 20, hints: 2, referenceUsed: true });
    store.close();
  });

  it('gives every attendee an id the CSV export keeps verbatim (never starting like a formula)', () => {
    const store = new RoomStore(openRoomDatabase(roomFile(), engine));
    // 300 joins: base64url ids began with "-" about once in 64, and the export escaped them.
    const ids = Array.from({ length: 300 }, (_, i) => store.join(`A${i}`, i).id);
    for (const id of ids) expect(csvField(id)).toBe(id);
    expect(new Set(ids).size).toBe(ids.length);
    store.close();
  });

  it('opens a room file from before questions carried a frame, and stores frames in it from then on', () => {
    const file = roomFile();
    const old = openRoomDatabase(file, engine);
    old.exec('CREATE TABLE help_requests (id INTEGER PRIMARY KEY AUTOINCREMENT, attendee_id TEXT NOT NULL, at INTEGER NOT NULL, exercise INTEGER NOT NULL, file TEXT NOT NULL, code TEXT NOT NULL, results TEXT NOT NULL, open INTEGER NOT NULL DEFAULT 1)');
    old.close();
    const store = new RoomStore(openRoomDatabase(file, engine));
    const ada = store.join('Ada', 0);
    const frame = { direction: 'c2s' as const, framing: 'content-length' as const, bytes: 'e30', streamOffset: 0, chunks: [], kind: 'request', method: 'ping', id: 1, value: {}, problem: null };
    const without = store.askForHelp(ada.id, { exercise: 2, file: 'frames.ts', code: 'x', results: [] }, 1);
    const withFrame = store.askForHelp(ada.id, { exercise: 2, file: 'frames.ts', code: 'y', results: [], frame }, 2);
    expect(store.helpRequest(without)).not.toHaveProperty('frame');
    expect(store.helpRequest(withFrame)?.frame).toEqual(frame);
    store.close();
  });

  it('refuses a report for an attendee it does not know', () => {
    const store = new RoomStore(openRoomDatabase(':memory:', engine));
    expect(store.report('nobody', { seq: 1, at: 0, station: 'welcome' }, 0)).toEqual({ kind: 'unknown-attendee' });
    expect(store.reportCount()).toBe(0);
    store.close();
  });
});

describe('join codes', () => {
  it('are made of the unambiguous alphabet and forgive case, spaces and a dash', () => {
    const store = new RoomStore(openRoomDatabase(':memory:'));
    for (const char of store.joinCode) expect(JOIN_CODE_ALPHABET).toContain(char);
    const typed = `${store.joinCode.slice(0, 3).toLowerCase()} - ${store.joinCode.slice(3)}`;
    expect(normalizeJoinCode(typed)).toBe(store.joinCode);
    expect(normalizeJoinCode('O0I1L5')).toBeNull();
    store.close();
  });
});

describe('the default room file', () => {
  it('is one per day under the cache folder, which MCP_PLAYGROUND_CACHE or XDG_CACHE_HOME move', () => {
    const day = new Date('2026-12-06T23:59:00Z');
    expect(defaultRoomFile(day, {}, '/home/ada')).toBe('/home/ada/.cache/mcp-playground/rooms/room-2026-12-06.sqlite');
    expect(defaultRoomFile(day, { XDG_CACHE_HOME: '/c' }, '/home/ada')).toBe('/c/mcp-playground/rooms/room-2026-12-06.sqlite');
    expect(defaultRoomFile(day, { MCP_PLAYGROUND_CACHE: '/m' }, '/home/ada')).toBe('/m/rooms/room-2026-12-06.sqlite');
  });
});
