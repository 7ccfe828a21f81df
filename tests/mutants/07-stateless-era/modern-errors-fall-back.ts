import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "-32020 / -32021 read as a legacy server",
  why: "A modern server that refused the request as sent gets an initialize it will not understand; the real error is hidden behind a confusing second failure.",
  section: "fallback",
  file: "src/protocol/era/probe.ts",
  edits: [
    { find: "    return { kind: 'fail', reason: `a modern server refused server/discover with ${error.code}: ${error.message}` };", replace: "    return { kind: 'legacy', reason: `MUTANT: ${error.code} read as legacy` };" },
  ],
  caughtBy: ["-32020 and -32021 come from a modern server that refused the request: fail, never legacy"],
} satisfies Mutant;
