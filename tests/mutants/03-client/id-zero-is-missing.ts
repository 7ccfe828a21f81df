import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'id 0 treated as "no id"',
  why: "A falsy check (`!response.id`) mistakes the valid id 0 for a missing one, so the answer to request 0 (the official SDK client's first request) is thrown away and initialize never finishes.",
  section: 'pairing-by-id',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: '    if (response.id === null || response.id === undefined) {',
      replace: `    // BUG: 0 is falsy, so the answer to request 0 is treated like an id-less error.
    if (!response.id) {`,
    },
  ],
  caughtBy: [
    'id 0 is an id like any other: the answer to request 0 is delivered',
    'the answer moves the client from "new" to "initialized" and initialize() resolves with the server\'s result',
  ],
} satisfies Mutant;
