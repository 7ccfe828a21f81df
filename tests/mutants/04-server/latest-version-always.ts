import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "always answers with its latest version",
  why: "A client that asked for an older version the server also supports gets the latest back, and disconnects if it cannot speak it: negotiation means echoing a supported request.",
  section: 'initialize',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: `      protocolVersion: known ? requested : LATEST_PROTOCOL_VERSION,`,
      replace: `      protocolVersion: known ? LATEST_PROTOCOL_VERSION : LATEST_PROTOCOL_VERSION, // MUTANT`,
    },
  ],
  caughtBy: [
    "Any sequence of messages › for any messages, in strict and lenient mode: answers each one as the reference does, and moves through the same phases",
  ],
} satisfies Mutant;
