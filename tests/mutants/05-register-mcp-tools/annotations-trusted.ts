import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'tool annotations trusted, and their absence read as "safe"',
  why: 'A tool that says nothing about itself runs with no approval. Annotations are untrusted hints: a tool with none must be treated as possibly destructive.',
  section: 'risk-tiers',
  file: 'src/protocol/register-mcp-tools.ts',
  edits: [
    {
      find: "  return 'approve';",
      replace: "  return hints?.destructiveHint === true ? 'approve' : 'auto'; // MUTANT: no hint read as harmless",
    },
  ],
  caughtBy: [
    'riskFromAnnotations treats a tool without annotations as possibly destructive',
    'riskFromAnnotations can be passed as the risk option',
  ],
} satisfies Mutant;
