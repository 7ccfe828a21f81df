import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "requestState not echoed on the retry",
  why: "The server keeps no session: requestState is the only memory of the first round, and without it the retry starts from scratch.",
  section: "mrtr",
  file: "src/protocol/era/input-requests.ts",
  edits: [
    { find: "  if (typeof result.requestState === 'string') fields.requestState = result.requestState;\n", replace: "" },
  ],
  caughtBy: ["echoes requestState exactly, and leaves it out when the server sent none"],
} satisfies Mutant;
