import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a non-destructive writer runs without being shown",
  why: "destructiveHint: false still writes: the lesson gives it suggest, so the user sees it; auto runs it unseen on the word of a server you may not trust.",
  section: 'risk-tiers',
  file: 'src/protocol/register-mcp-tools.ts',
  edits: [
    {
      find: `  if (hints?.destructiveHint === false) return 'suggest';`,
      replace: `  if (hints?.destructiveHint === false) return 'auto'; // MUTANT`,
    },
  ],
  caughtBy: [
    "riskFromAnnotations: read-only runs, a non-destructive writer is suggested, a destructive one needs approval",
    "Any server › for any tools, prefix, risk option and registry: registers, refuses and forwards as the reference does",
  ],
} satisfies Mutant;
