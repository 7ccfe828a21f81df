// Vitest globalSetup: build the Node programs once, before any test file runs, so the integration
// tests spawn exactly the files a WebContainer would run (public/generated/*.mjs), never stale ones.

import { buildNodePrograms } from '../scripts/build-node-programs.ts';

export default async function setup(): Promise<void> {
  await buildNodePrograms();
}
