import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "no limit on MRTR rounds",
  why: "A server that keeps asking keeps the client busy forever.",
  section: "mrtr",
  file: "src/protocol/era/modern-session.ts",
  edits: [
    { find: "      if (round + 1 >= maxRounds) throw", replace: "      if (round + 1 >= maxRounds * 1000) throw" },
  ],
  caughtBy: ["a server that keeps asking gets maxInputRounds requests, then InputRequiredError"],
} satisfies Mutant;
