import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "silence on stdio read as a failure instead of a legacy server",
  why: "Some legacy stdio servers never answer before initialize: the client refuses to talk to them at all.",
  section: "fallback",
  file: "src/protocol/era/probe.ts",
  edits: [
    { find: "      return context.transport === 'stdio'\n        ? { kind: 'legacy',", replace: "      return context.transport === 'never' // MUTANT: silence is always a failure\n        ? { kind: 'legacy'," },
  ],
  caughtBy: ["silence on stdio means legacy; on HTTP it means the server is down: fail"],
} satisfies Mutant;
