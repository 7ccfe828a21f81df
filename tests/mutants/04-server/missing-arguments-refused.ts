import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a tools/call without arguments refused",
  why: "arguments is optional: a tool without required parameters may be called with none, and the server must treat it as {}.",
  section: 'tools',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: `    const args = params.arguments ?? {};`,
      replace: `    const args = params.arguments; // MUTANT: no default`,
    },
  ],
  caughtBy: [
    "Any sequence of messages › for any messages, in strict and lenient mode: answers each one as the reference does, and moves through the same phases",
  ],
} satisfies Mutant;
