import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a second initialize allowed while one is in flight',
  why: 'Without the in-flight guard a second initialize() in "new" sends another initialize request instead of being refused, so the server sees the handshake twice.',
  section: 'initialize-once',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: "    if (this.initializing) throw new ClientStateError('initialize', 'new', 'an initialize request is already in flight; wait for its answer');",
      replace: '    // BUG: no guard against a second initialize while the first one is still in flight.',
    },
  ],
  caughtBy: ['a second initialize() while the first is in flight is refused, and only one initialize goes out'],
} satisfies Mutant;
