import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "-32601 from server/discover treated as a failure",
  why: "Every legacy server answers an unknown method with -32601: the client never falls back and cannot talk to any of them.",
  section: "fallback",
  file: "src/protocol/era/probe.ts",
  edits: [
    { find: "  return { kind: 'legacy', reason: `server/discover answered with error ${error.code} (${error.message}), not a modern error` };", replace: "  return { kind: 'fail', reason: `MUTANT: ${error.code} is fatal` };" },
  ],
  caughtBy: ["-32601 (a legacy server does not know server/discover) means legacy"],
} satisfies Mutant;
