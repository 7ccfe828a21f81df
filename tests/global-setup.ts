// Vitest globalSetup: build the Node programs once, before any test file runs, so the integration
// tests spawn exactly the files a WebContainer would run (public/generated/*.mjs), never stale ones.
// It also says which Node runs the tests (npm test runs them under two: see scripts/test-node24.sh).

import { buildNodePrograms } from '../scripts/build-node-programs.ts';

export default async function setup(): Promise<void> {
  console.log(`[vitest] node ${process.version} (${process.execPath})`);
  await buildNodePrograms();
}
