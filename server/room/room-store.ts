// What the room keeps, in its SQLite file: who joined, every acknowledged report, and the progress
// those reports add up to. A report is stored and folded into the progress in one transaction,
// and its (attendee, seq) is the key, so a report sent twice (a page that never saw the ack before
// the bridge went away) is acknowledged again and counted once.

import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH, type HelpFrame, type HelpQueueItem, type HelpRequest, type RoomAttendeeView, type RoomReport } from '../../src/runtime/room-messages.ts';
import type { RoomDatabase } from './sqlite.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS room_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS attendees (
  id TEXT PRIMARY KEY,
  secret_hash TEXT NOT NULL,
  name TEXT NOT NULL,
  joined_at INTEGER NOT NULL,
  station TEXT,
  station_since INTEGER,
  last_run_at INTEGER,
  last_new_pass_at INTEGER,
  last_seq INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS reports (
  attendee_id TEXT NOT NULL REFERENCES attendees(id),
  seq INTEGER NOT NULL,
  at INTEGER NOT NULL,
  received_at INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (attendee_id, seq)
);
CREATE TABLE IF NOT EXISTS help_requests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  attendee_id TEXT NOT NULL REFERENCES attendees(id),
  at INTEGER NOT NULL,
  exercise INTEGER NOT NULL,
  file TEXT NOT NULL,
  code TEXT NOT NULL,
  results TEXT NOT NULL,
  open INTEGER NOT NULL DEFAULT 1,
  frame TEXT
);
CREATE TABLE IF NOT EXISTS progress (
  attendee_id TEXT NOT NULL REFERENCES attendees(id),
  exercise INTEGER NOT NULL,
  passed INTEGER NOT NULL DEFAULT 0,
  total INTEGER NOT NULL DEFAULT 0,
  best_passed INTEGER NOT NULL DEFAULT 0,
  hints INTEGER NOT NULL DEFAULT 0,
  reference_used INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (attendee_id, exercise)
);
`;

export interface Attendee {
  id: string;
  name: string;
  joinedAt: number;
}

export type ReportOutcome = { kind: 'stored' | 'duplicate'; seq: number } | { kind: 'unknown-attendee' };

export class RoomStore {
  /** The join code attendees type; kept in the file so a restarted bridge keeps the same one. */
  readonly joinCode: string;
  /** The instructor's key: a different secret from the join code, never shown to attendees. */
  readonly roomKey: string;

  constructor(private readonly db: RoomDatabase) {
    db.exec('PRAGMA foreign_keys = ON;');
    // One bridge owns the file (sqlite.ts claims it), so its lock is held for good; then WAL works
    // on either engine and a commit needs no fsync: synchronous=NORMAL keeps every acknowledged
    // report across a killed or crashed bridge (the WAL is in the file system), and only a power cut
    // could lose the last moments, never corrupt the file. The default rollback journal fsynced
    // every report: 13 ms a commit here, and with 200 attendees the room queued reports for tens of
    // seconds (npm run bench -- --only=room).
    db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
    db.exec(SCHEMA);
    // A room file from before questions carried a frame gets the column (SQLite adds it in place).
    if (!db.all('PRAGMA table_info(help_requests)').some((column) => column.name === 'frame')) db.exec('ALTER TABLE help_requests ADD COLUMN frame TEXT');
    this.joinCode = this.meta('join_code', createJoinCode);
    this.roomKey = this.meta('room_key', () => randomBytes(24).toString('base64url'));
  }

  get engine(): RoomDatabase['engine'] {
    return this.db.engine;
  }

  /** A new attendee: their id and the secret only their page keeps (the file keeps its hash). */
  join(name: string, now: number): Attendee & { secret: string } {
    // Hex, not base64url: an id that starts with "-" would look like a formula to the CSV export,
    // which then escapes it (one id in 64 did), and ids are read aloud and pasted as they are.
    const id = randomBytes(9).toString('hex');
    const secret = randomBytes(24).toString('base64url');
    this.db.run('INSERT INTO attendees (id, secret_hash, name, joined_at) VALUES (?, ?, ?, ?)', [id, hashSecret(secret), name, now]);
    return { id, name, joinedAt: now, secret };
  }

  /** The attendee these credentials belong to, or null. */
  authenticate(id: unknown, secret: unknown): Attendee | null {
    if (typeof id !== 'string' || typeof secret !== 'string' || id.length > 64 || secret.length > 128) return null;
    const row = this.db.get('SELECT id, name, joined_at, secret_hash FROM attendees WHERE id = ?', [id]);
    if (row === undefined) return null;
    const expected = Buffer.from(String(row.secret_hash), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(hashSecret(secret), 'hex'))) return null;
    return { id: String(row.id), name: String(row.name), joinedAt: Number(row.joined_at) };
  }

  attendeeCount(): number {
    return Number(this.db.get('SELECT COUNT(*) AS n FROM attendees')?.n ?? 0);
  }

  /** Store one checked report and fold it into the attendee's progress, all or nothing. */
  report(attendeeId: string, report: RoomReport, receivedAt: number): ReportOutcome {
    const attendee = this.db.get('SELECT station, last_seq FROM attendees WHERE id = ?', [attendeeId]);
    if (attendee === undefined) return { kind: 'unknown-attendee' };
    if (this.db.get('SELECT 1 AS found FROM reports WHERE attendee_id = ? AND seq = ?', [attendeeId, report.seq]) !== undefined) {
      return { kind: 'duplicate', seq: report.seq };
    }
    this.db.exec('BEGIN IMMEDIATE');
    try {
      this.db.run('INSERT INTO reports (attendee_id, seq, at, received_at, body) VALUES (?, ?, ?, ?, ?)', [
        attendeeId,
        report.seq,
        report.at,
        receivedAt,
        JSON.stringify(report),
      ]);
      // Reports can arrive out of order after a reconnect: only the newest one moves the station.
      if (report.seq > Number(attendee.last_seq)) {
        const moved = attendee.station !== report.station;
        this.db.run(
          `UPDATE attendees SET last_seq = ?, station = ?, station_since = CASE WHEN ? THEN ? ELSE station_since END WHERE id = ?`,
          [report.seq, report.station, moved ? 1 : 0, report.at, attendeeId],
        );
      }
      if (report.run !== undefined) this.foldRun(attendeeId, report.run, report.at);
      for (const [exercise, hints] of Object.entries(report.hints ?? {})) {
        this.ensureProgress(attendeeId, Number(exercise));
        this.db.run('UPDATE progress SET hints = MAX(hints, ?) WHERE attendee_id = ? AND exercise = ?', [hints, attendeeId, Number(exercise)]);
      }
      for (const exercise of report.referenceUsed ?? []) {
        this.ensureProgress(attendeeId, exercise);
        this.db.run('UPDATE progress SET reference_used = 1 WHERE attendee_id = ? AND exercise = ?', [attendeeId, exercise]);
      }
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
    return { kind: 'stored', seq: report.seq };
  }

  private foldRun(attendeeId: string, run: NonNullable<RoomReport['run']>, at: number): void {
    this.ensureProgress(attendeeId, run.exercise);
    const before = this.db.get('SELECT best_passed FROM progress WHERE attendee_id = ? AND exercise = ?', [attendeeId, run.exercise]);
    const newPass = run.passed > Number(before?.best_passed ?? 0);
    this.db.run('UPDATE progress SET passed = ?, total = ?, best_passed = MAX(best_passed, ?) WHERE attendee_id = ? AND exercise = ?', [
      run.passed,
      run.total,
      run.passed,
      attendeeId,
      run.exercise,
    ]);
    this.db.run(
      `UPDATE attendees SET last_run_at = MAX(COALESCE(last_run_at, 0), ?),
         last_new_pass_at = CASE WHEN ? THEN MAX(COALESCE(last_new_pass_at, 0), ?) ELSE last_new_pass_at END WHERE id = ?`,
      [at, newPass ? 1 : 0, at, attendeeId],
    );
  }

  private ensureProgress(attendeeId: string, exercise: number): void {
    this.db.run('INSERT OR IGNORE INTO progress (attendee_id, exercise) VALUES (?, ?)', [attendeeId, exercise]);
  }

  /** Every attendee with their progress, for the instructor; `connected` is filled in by the caller. */
  attendees(): Omit<RoomAttendeeView, 'connected' | 'following'>[] {
    const progress = new Map<string, RoomAttendeeView['exercises']>();
    for (const row of this.db.all('SELECT attendee_id, exercise, passed, total, hints, reference_used FROM progress ORDER BY exercise')) {
      const id = String(row.attendee_id);
      let exercises = progress.get(id);
      if (exercises === undefined) progress.set(id, (exercises = {}));
      exercises[String(row.exercise)] = { passed: Number(row.passed), total: Number(row.total), hints: Number(row.hints), referenceUsed: row.reference_used === 1 };
    }
    return this.db.all('SELECT id, name, joined_at, station, station_since, last_run_at, last_new_pass_at FROM attendees ORDER BY joined_at, id').map((row) => ({
      attendee: String(row.id),
      name: String(row.name),
      joinedAt: Number(row.joined_at),
      station: row.station === null ? null : String(row.station),
      stationSince: numberOrNull(row.station_since),
      lastRunAt: numberOrNull(row.last_run_at),
      lastNewPassAt: numberOrNull(row.last_new_pass_at),
      exercises: progress.get(String(row.id)) ?? {},
    }));
  }

  /** A new question; the attendee's earlier open one (they asked again) is closed: one each in the queue. */
  askForHelp(attendeeId: string, request: HelpRequest, at: number): number {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      this.db.run('UPDATE help_requests SET open = 0 WHERE attendee_id = ? AND open = 1', [attendeeId]);
      this.db.run('INSERT INTO help_requests (attendee_id, at, exercise, file, code, results, frame) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        attendeeId,
        at,
        request.exercise,
        request.file,
        request.code,
        JSON.stringify(request.results),
        request.frame === undefined ? null : JSON.stringify(request.frame),
      ]);
      const id = Number(this.db.get('SELECT MAX(id) AS id FROM help_requests WHERE attendee_id = ?', [attendeeId])?.id);
      this.db.exec('COMMIT');
      return id;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /** The open questions, oldest first. */
  helpQueue(): HelpQueueItem[] {
    return this.db
      .all('SELECT h.id, h.attendee_id, a.name, h.at, h.exercise, h.file, h.results FROM help_requests h JOIN attendees a ON a.id = h.attendee_id WHERE h.open = 1 ORDER BY h.at, h.id')
      .map((row) => ({
        id: Number(row.id),
        attendee: String(row.attendee_id),
        name: String(row.name),
        at: Number(row.at),
        exercise: Number(row.exercise),
        file: String(row.file),
        failing: (JSON.parse(String(row.results)) as HelpRequest['results']).filter((result) => result.status !== 'pass').length,
      }));
  }

  /** One question in full (open or not), or undefined. */
  helpRequest(id: number): (HelpRequest & { id: number; name: string; at: number; open: boolean }) | undefined {
    const row = this.db.get('SELECT h.id, a.name, h.at, h.exercise, h.file, h.code, h.results, h.open, h.frame FROM help_requests h JOIN attendees a ON a.id = h.attendee_id WHERE h.id = ?', [id]);
    if (row === undefined) return undefined;
    return {
      id: Number(row.id),
      name: String(row.name),
      at: Number(row.at),
      exercise: Number(row.exercise),
      file: String(row.file),
      code: String(row.code),
      results: JSON.parse(String(row.results)) as HelpRequest['results'],
      open: row.open === 1,
      ...(typeof row.frame === 'string' ? { frame: JSON.parse(row.frame) as HelpFrame } : {}),
    };
  }

  /** The instructor answered: the question leaves the queue. False when there is no such open one. */
  closeHelp(id: number): boolean {
    return this.db.run('UPDATE help_requests SET open = 0 WHERE id = ? AND open = 1', [id]).changes === 1;
  }

  /** Every acknowledged report, in the order received (for the room's JSON export). */
  allReports(): { attendee: string; seq: number; at: number; receivedAt: number; report: unknown }[] {
    return this.db.all('SELECT attendee_id, seq, at, received_at, body FROM reports ORDER BY received_at, attendee_id, seq').map((row) => ({
      attendee: String(row.attendee_id),
      seq: Number(row.seq),
      at: Number(row.at),
      receivedAt: Number(row.received_at),
      report: JSON.parse(String(row.body)) as unknown,
    }));
  }

  /** Every reported run: who, when the bridge got it, which exercise, how many tests passed of how many. */
  runs(): { attendee: string; at: number; exercise: number; passed: number; total: number }[] {
    // Reports are checked before they are stored, so a stored run has these fields.
    // When the bridge received it: an attendee's clock may be off (or a report's `at` made up).
    return this.db.all(`SELECT attendee_id, received_at, body FROM reports WHERE body LIKE '%"run":%'`).flatMap((row) => {
      const run = (JSON.parse(String(row.body)) as RoomReport).run;
      return run === undefined ? [] : [{ attendee: String(row.attendee_id), at: Number(row.received_at), exercise: run.exercise, passed: run.passed, total: run.total }];
    });
  }

  /** Reports acknowledged, in all (and for one attendee). */
  reportCount(attendeeId?: string): number {
    const row = attendeeId === undefined ? this.db.get('SELECT COUNT(*) AS n FROM reports') : this.db.get('SELECT COUNT(*) AS n FROM reports WHERE attendee_id = ?', [attendeeId]);
    return Number(row?.n ?? 0);
  }

  close(): void {
    this.db.close();
  }

  private meta(key: string, create: () => string): string {
    const row = this.db.get('SELECT value FROM room_meta WHERE key = ?', [key]);
    if (row !== undefined) return String(row.value);
    const value = create();
    this.db.run('INSERT INTO room_meta (key, value) VALUES (?, ?)', [key, value]);
    return value;
  }
}

export function createJoinCode(): string {
  let code = '';
  for (let i = 0; i < JOIN_CODE_LENGTH; i++) code += JOIN_CODE_ALPHABET[randomInt(JOIN_CODE_ALPHABET.length)];
  return code;
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}
