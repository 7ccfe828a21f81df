import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "an unknown resultType returned as a complete result",
  why: "A result of a kind the client does not know (a task, say) is handed to the caller as if it were the answer.",
  section: "result-type",
  file: "src/protocol/era/modern-session.ts",
  edits: [
    { find: "      if (type !== RESULT_TYPE_INPUT_REQUIRED) throw new ProtocolViolationError(method, `unknown resultType ${JSON.stringify(type)}`);", replace: "      if (type !== RESULT_TYPE_INPUT_REQUIRED) return result; // MUTANT: unknown resultType accepted" },
  ],
  caughtBy: ["a resultType nobody knows is a ProtocolViolationError"],
} satisfies Mutant;
