// `npm start` as a child process the tests can kill: the same startServer and the same exit
// handling (stopOnExit) as server/start.ts's main, on a free port, serving a tiny fake dist whose
// programs the test built. It prints one JSON line { url, token } once it listens. SIGUSR2 makes it
// throw an uncaught error, as a bug in the bridge would.
//
//   node --import tsx tests/security/bridge-harness.ts <distDir>

import { startServer, stopOnExit } from '../../server/start.ts';

const distDir = process.argv[2];
if (!distDir) throw new Error('usage: bridge-harness.ts <distDir>');
const running = await startServer({ port: 0, distDir, skipBuild: true, learnerCodeInNode: true, log: () => {} });
stopOnExit(running);
process.on('SIGUSR2', () => {
  setImmediate(() => {
    throw new Error('a bug in the bridge');
  });
});
process.stdout.write(`${JSON.stringify({ url: running.url, token: running.token })}\n`);
