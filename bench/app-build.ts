// The production build the browser sections load, served exactly as `npm start` serves it
// (server/start.ts: the app's CSP and isolation headers, the bridge on the same port).
//
// With no folder given, dist/ is built first when it is missing or older than its sources. With
// one (`--dist=DIR`: the suite's smoke test passes the e2e build), that build is used as it is:
// no app build and no rebuild of its Node programs, so the bench never writes into a build that
// other processes are serving at the same moment.

import { join } from 'node:path';
import { startServer, type RunningServer } from '../server/start.ts';
import { PROJECT_ROOT } from '../tools/project-root.ts';

/** The folder of a current production build: `given` as it is, else dist/ (built when stale). */
export async function currentBuild(given?: string): Promise<string> {
  if (given !== undefined) return given;
  const distDir = join(PROJECT_ROOT, 'dist');
  // startServer builds a stale dist/ (and its Node programs) before it listens: start it, stop it.
  await (await startServer({ port: 0, distDir, log: () => {} })).close();
  return distDir;
}

/** Serve a built folder on a free loopback port, without building anything. */
export function serveBuild(distDir: string): Promise<RunningServer> {
  return startServer({ port: 0, distDir, skipBuild: true, log: () => {} });
}
