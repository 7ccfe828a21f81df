// The workshop room alone, as the load bench's bridge: a real HTTP server on loopback with the
// real room and its SQLite file, in its own process so its CPU and memory are its own, and so the
// bench can kill it (SIGKILL: no goodbye) and start it again on the same port and file.
//
//   node --import tsx bench/room-load-server.ts PORT FILE
//
// Prints {"port":N} once listening, then every 500 ms {"cpuMs":…,"rssMb":…} (a killed process
// cannot report at the end, so the bench keeps the last sample).

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRoom } from '../server/room/room.ts';
import { RoomStore } from '../server/room/room-store.ts';
import { openRoomDatabase } from '../server/room/sqlite.ts';

const [portArg, file] = process.argv.slice(2);
if (portArg === undefined || file === undefined) throw new Error('usage: room-load-server.ts PORT FILE');
let port = Number(portArg);
const room = createRoom({
  store: new RoomStore(openRoomDatabase(file)),
  file,
  ownOrigins: () => [`http://127.0.0.1:${port}`],
  joinUrls: () => [],
  log: () => {},
});
const server = createServer((req, res) => {
  if (!room.handle(req, res)) res.writeHead(404).end();
});
server.listen(port, '127.0.0.1', () => {
  port = (server.address() as AddressInfo).port;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
const started = process.cpuUsage();
setInterval(() => {
  const cpu = process.cpuUsage(started);
  process.stdout.write(`${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, rssMb: process.memoryUsage().rss / 2 ** 20 })}\n`);
}, 500).unref();
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => {
    room.close();
    process.exit(0);
  });
});
