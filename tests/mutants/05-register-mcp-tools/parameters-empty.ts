import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "remote tools registered without parameters",
  why: "The model is told the tool takes no arguments, so it calls echo without text and the server refuses.",
  section: 'ordinary-tools',
  file: 'src/protocol/register-mcp-tools.ts',
  edits: [
    {
      find: `      parameters: schemaToParams(tool.inputSchema),`,
      replace: `      parameters: [], // MUTANT`,
    },
  ],
  caughtBy: [
    "turns the inputSchema into parameters, so the model sees the same schema as for a local tool",
    "Any server › for any tools, prefix, risk option and registry: registers, refuses and forwards as the reference does",
  ],
} satisfies Mutant;
