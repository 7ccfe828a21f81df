import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "an unknown method answered -32600",
  why: "-32600 says the message itself is broken; -32601 tells the client the method does not exist here, so it can stop asking.",
  section: 'ids-and-methods',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: `    return encodeError(id, ErrorCode.MethodNotFound, \`Method not found: \${method}\`);`,
      replace: `    return encodeError(id, ErrorCode.InvalidRequest, \`Method not found: \${method}\`); // MUTANT: wrong code`,
    },
  ],
  caughtBy: [
    "an unknown method is -32601 (method not found)",
    "Any sequence of messages › for any messages, in strict and lenient mode: answers each one as the reference does, and moves through the same phases",
  ],
} satisfies Mutant;
