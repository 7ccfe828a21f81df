import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "ping refused before initialize",
  why: "ping is answered at any time; a client probing whether the server is alive before the handshake gets an error instead.",
  section: 'ids-and-methods',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: `    if (method === 'ping') return encodeResult(id, {});
`,
      replace: `    // MUTANT: ping goes through the gate like any request
`,
    },
  ],
  caughtBy: [
    "ping gets an empty result, even before initialize",
    "Any sequence of messages › for any messages, in strict and lenient mode: answers each one as the reference does, and moves through the same phases",
  ],
} satisfies Mutant;
