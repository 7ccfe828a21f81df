// Where `npm start -- --host` keeps the workshop room when no --room=FILE is given: one file per
// day under the user's cache folder (the same folder scripts/ensure-node24.sh uses), so a bridge
// restarted mid-workshop finds the room it left, and next week's workshop starts an empty one.

import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export function defaultRoomFile(now: Date, env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  const cache = env.MCP_PLAYGROUND_CACHE || join(env.XDG_CACHE_HOME || join(home, '.cache'), 'mcp-playground');
  const day = now.toISOString().slice(0, 10);
  return join(cache, 'rooms', `room-${day}.sqlite`);
}

/** The folder of a room file, created if missing (the file itself SQLite creates). */
export function prepareRoomFile(file: string): string {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  return path;
}
