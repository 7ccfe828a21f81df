import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "an input request without a handler answered with null",
  why: "The server receives an answer nobody gave (a silent \"null\" to a confirmation) instead of the client saying it cannot answer.",
  section: "mrtr",
  file: "src/protocol/era/input-requests.ts",
  edits: [
    { find: "      if (handler === undefined) throw new InputRequiredError(method, `no handler for input request \"${key}\" (${String(kind)})`, result);", replace: "      if (handler === undefined) { responses[key] = null; continue; } // MUTANT" },
  ],
  caughtBy: ["no handler for an input request: InputRequiredError, and no retry"],
} satisfies Mutant;
