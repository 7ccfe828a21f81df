import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the risk option ignored: every remote tool is 'auto'",
  why: "A server's delete_file runs without passing the approval gate (the risk tiers), exactly what inheriting a risk tier is meant to prevent.",
  section: 'risk-tiers',
  file: 'src/protocol/register-mcp-tools.ts',
  edits: [
    {
      find: "      risk: typeof chooseRisk === 'function' ? chooseRisk(tool) : chooseRisk,",
      replace: "      risk: 'auto', // MUTANT: remote tools skip the approval gate",
    },
  ],
  caughtBy: [
    'gives every tool the tier passed as risk',
    'asks a risk function once per tool, with the tool as tools/list described it',
    'riskFromAnnotations can be passed as the risk option',
  ],
} satisfies Mutant;
