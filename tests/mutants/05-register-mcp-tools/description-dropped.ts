import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the tool's description dropped",
  why: "The model chooses tools by their descriptions; without one it guesses from the name.",
  section: 'ordinary-tools',
  file: 'src/protocol/register-mcp-tools.ts',
  edits: [
    {
      find: `      description: tool.description ?? '',`,
      replace: `      description: '', // MUTANT`,
    },
  ],
  caughtBy: [
    "Any server › for any tools, prefix, risk option and registry: registers, refuses and forwards as the reference does",
  ],
} satisfies Mutant;
