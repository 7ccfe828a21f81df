import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a -32022 to a request is thrown to the caller instead of retried",
  why: "The server said exactly which versions it speaks; the call fails although one more request would have worked.",
  section: "version-retry",
  file: "src/protocol/era/modern-session.ts",
  edits: [
    { find: "      if (mutual === undefined) throw error;", replace: "      if (mutual === undefined || mutual !== undefined) throw error; // MUTANT: never retried" },
  ],
  caughtBy: ["a -32022 to a request: sent once more, with a new id and the mutual version, which later requests keep"],
} satisfies Mutant;
