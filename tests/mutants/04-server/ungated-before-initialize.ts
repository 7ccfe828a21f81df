import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "requests served before initialize",
  why: "Only initialize and ping are served before initialize: a tools/list there means the client skipped the handshake, and the server cannot know which version it speaks.",
  section: 'initialized-gate',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: `    if (this.#phase === 'awaiting-initialize') {
      return encodeError(id, ErrorCode.InvalidRequest, \`\${method} before initialize: the client must send initialize first\`);
    }`,
      replace: `    // MUTANT: no check before initialize`,
    },
  ],
  caughtBy: [
    "tools/list and tools/call before initialize are refused with -32600",
    "Any sequence of messages › for any messages, in strict and lenient mode: answers each one as the reference does, and moves through the same phases",
  ],
} satisfies Mutant;
