// The room's embedded store: SQLite in one file, with no service to run. Node's own `node:sqlite`
// where this Node has it (22.5 and later), else `node-sqlite3-wasm` (SQLite compiled to
// WebAssembly, from the npm registry alone: no native build, no download at install). Both write
// through to the file on every statement, so whatever was acknowledged survives a crash.
//
// Only the few calls the room needs, with positional parameters, so either engine can serve them.

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export type SqlValue = string | number | null;
export type SqlRow = Record<string, SqlValue>;

export interface RoomDatabase {
  /** Which engine opened the file: the closing notes and the tests name it. */
  readonly engine: 'node:sqlite' | 'node-sqlite3-wasm';
  exec(sql: string): void;
  run(sql: string, params?: readonly SqlValue[]): { changes: number };
  all(sql: string, params?: readonly SqlValue[]): SqlRow[];
  get(sql: string, params?: readonly SqlValue[]): SqlRow | undefined;
  close(): void;
}

const require = createRequire(import.meta.url);

/**
 * Opens (or creates) the database file; `:memory:` for a throwaway one. One bridge per file: a
 * second one is refused while the first lives (see claimRoomFile).
 */
export function openRoomDatabase(file: string, prefer?: RoomDatabase['engine']): RoomDatabase {
  if (file === ':memory:') return openWith(file, prefer);
  claimRoomFile(file);
  const db = openWith(file, prefer);
  return {
    ...db,
    close() {
      db.close();
      rmSync(`${file}.pid`, { force: true });
    },
  };
}

function openWith(file: string, prefer?: RoomDatabase['engine']): RoomDatabase {
  const builtin = prefer === 'node-sqlite3-wasm' ? null : loadNodeSqlite();
  if (builtin !== null) return openWithNodeSqlite(builtin, file);
  if (prefer === 'node:sqlite') throw new Error(`node:sqlite is not available in Node ${process.versions.node}`);
  return openWithWasm(file);
}

// The part of node:sqlite used here, typed by hand: this project's @types/node is Node 20's, which has no node:sqlite.
interface NodeSqliteStatement {
  run(...params: SqlValue[]): { changes: number | bigint };
  all(...params: SqlValue[]): unknown[];
  get(...params: SqlValue[]): unknown;
}
interface NodeSqlite {
  DatabaseSync: new (file: string) => { exec(sql: string): void; prepare(sql: string): NodeSqliteStatement; close(): void };
}

function loadNodeSqlite(): NodeSqlite | null {
  // process.getBuiltinModule answers undefined for a module this Node lacks, without a warning.
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  const loaded = getBuiltin?.call(process, 'node:sqlite') as NodeSqlite | undefined;
  return loaded ?? null;
}

function openWithNodeSqlite(sqlite: NodeSqlite, file: string): RoomDatabase {
  const db = new sqlite.DatabaseSync(file);
  const statements = new Map<string, NodeSqliteStatement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (statement === undefined) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  return {
    engine: 'node:sqlite',
    exec: (sql) => db.exec(sql),
    run: (sql, params = []) => ({ changes: Number(prepared(sql).run(...params).changes) }),
    all: (sql, params = []) => prepared(sql).all(...params) as SqlRow[],
    get: (sql, params = []) => prepared(sql).get(...params) as SqlRow | undefined,
    close: () => db.close(),
  };
}

interface WasmDatabase {
  exec(sql: string): void;
  run(sql: string, values?: SqlValue[]): { changes: number };
  all(sql: string, values?: SqlValue[]): SqlRow[];
  get(sql: string, values?: SqlValue[]): SqlRow | null;
  close(): void;
}

function openWithWasm(file: string): RoomDatabase {
  const { Database } = require('node-sqlite3-wasm') as { Database: new (file: string) => WasmDatabase };
  const db = new Database(file);
  return {
    engine: 'node-sqlite3-wasm',
    exec: (sql) => db.exec(sql),
    run: (sql, params = []) => ({ changes: db.run(sql, [...params]).changes }),
    all: (sql, params = []) => db.all(sql, [...params]),
    get: (sql, params = []) => db.get(sql, [...params]) ?? undefined,
    close: () => db.close(),
  };
}

/**
 * Make this process the room file's one owner, in `<file>.pid`. A live owner that is another
 * process means a second bridge on the same room: refused. A dead one (the bridge was killed, the
 * laptop lost power) may have left node-sqlite3-wasm's lock behind: that engine locks with a
 * `<file>.lock` directory, which outlives a SIGKILL and would keep the room locked for good. Only
 * this check, which knows the owner is gone, can safely remove it. (node:sqlite's locks are the
 * kernel's, released with the process; the check costs it nothing and still refuses a second bridge.)
 */
export function claimRoomFile(file: string): void {
  const pidFile = `${file}.pid`;
  let owner: number | null = null;
  try {
    owner = Number.parseInt(readFileSync(pidFile, 'utf8'), 10);
  } catch {
    // No owner yet.
  }
  if (owner !== null && Number.isSafeInteger(owner) && owner !== process.pid && isAlive(owner)) {
    throw new Error(`the room file ${file} is in use by another bridge (process ${owner}); stop it, or give this one --room=ANOTHER_FILE`);
  }
  rmSync(`${file}.lock`, { recursive: true, force: true });
  writeFileSync(pidFile, `${process.pid}\n`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, and belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
