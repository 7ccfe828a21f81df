import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a second initialize answered again",
  why: "The session is already set up; answering a second initialize restarts a handshake mid-session instead of refusing it with -32600.",
  section: 'initialized-gate',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: `    if (this.#phase !== 'awaiting-initialize') {
      return encodeError(id, ErrorCode.InvalidRequest, 'initialize was already answered: it is sent once per session');
    }`,
      replace: `    // MUTANT: a second initialize is answered like the first`,
    },
  ],
  caughtBy: [
    "initialize is answered once per session: a second one is refused with -32600",
    "Any sequence of messages › for any messages, in strict and lenient mode: answers each one as the reference does, and moves through the same phases",
  ],
} satisfies Mutant;
