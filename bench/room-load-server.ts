// The load bench's bridge: the real shared bridge (`npm start -- --host`, bound to loopback) with
// its room in the given SQLite file, serving the built app, in its own process so its CPU and
// memory are its own, and so the bench can kill it (SIGKILL: no goodbye) and start it again on the
// same port and file.
//
//   node --import tsx bench/room-load-server.ts PORT FILE DIST
//
// Prints {"port":N} once listening, then every 500 ms {"cpuMs":…,"rssMb":…} (a killed process
// cannot report at the end, so the bench keeps the last sample).

import { startServer } from '../server/start.ts';

const [portArg, file, distDir] = process.argv.slice(2);
if (portArg === undefined || file === undefined || distDir === undefined) throw new Error('usage: room-load-server.ts PORT FILE DIST');
const running = await startServer({ port: Number(portArg), host: '127.0.0.1', shared: true, distDir, skipBuild: true, roomFile: file, log: () => {} });
process.stdout.write(`${JSON.stringify({ port: running.port })}\n`);
const started = process.cpuUsage();
setInterval(() => {
  const cpu = process.cpuUsage(started);
  process.stdout.write(`${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, rssMb: process.memoryUsage().rss / 2 ** 20 })}\n`);
}, 500).unref();
process.on('SIGTERM', () => {
  void running.close().then(() => process.exit(0));
});
