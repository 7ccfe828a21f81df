import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a result without resultType treated as invalid",
  why: "Results from servers that do not stamp resultType are complete answers: every one of them would fail.",
  section: "result-type",
  file: "src/protocol/era/modern-session.ts",
  edits: [
    { find: "      if (type === RESULT_TYPE_COMPLETE) return result;", replace: "      if (type === RESULT_TYPE_COMPLETE && result.resultType !== undefined) return result; // MUTANT: missing = invalid" },
  ],
  caughtBy: ["a result without resultType is complete: returned as it is, no retry"],
} satisfies Mutant;
