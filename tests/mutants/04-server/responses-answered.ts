import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a response from the client answered with an error",
  why: "The client answers the error with its own, and the two sides echo each other forever: a response is never answered.",
  section: 'notifications',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: `    if (!isRequest(message)) return null;`,
      replace: `    if (!isRequest(message)) return encodeError(null, ErrorCode.InvalidRequest, 'unexpected response'); // MUTANT`,
    },
  ],
  caughtBy: [
    "a response sent to the server is not answered (that would start an endless echo)",
    "Any sequence of messages › for any messages, in strict and lenient mode: answers each one as the reference does, and moves through the same phases",
  ],
} satisfies Mutant;
