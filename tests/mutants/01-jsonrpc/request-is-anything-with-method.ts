import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "every message with a method taken for a request",
  why: "Notifications look like requests, so the server answers them: the client receives responses it never asked for.",
  section: 'classifiers',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: `  return 'method' in message && 'id' in message;`,
      replace: `  return 'method' in message; // MUTANT`,
    },
  ],
  caughtBy: [
    "each shape is exactly one of request, notification, response",
    "Telling messages apart › for any valid message: classified exactly as the reference classifies it",
  ],
} satisfies Mutant;
