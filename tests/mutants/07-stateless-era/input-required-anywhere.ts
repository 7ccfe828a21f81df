import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "input_required accepted on any method",
  why: "Only tools/call, resources/read and prompts/get may ask for input; a server that asks on tools/list breaks the protocol and must be told so.",
  section: "result-type",
  file: "src/protocol/era/modern-session.ts",
  edits: [
    { find: "      if (!MRTR_METHODS.includes(method)) throw", replace: "      if (false && !MRTR_METHODS.includes(method)) throw" },
  ],
  caughtBy: ["input_required on a method that may not carry it (tools/list) is a ProtocolViolationError"],
} satisfies Mutant;
