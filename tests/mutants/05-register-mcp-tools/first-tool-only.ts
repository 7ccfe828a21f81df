import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "only the first listed tool registered",
  why: "The loop returns after its first registration: the model never sees the server's other tools.",
  section: 'ordinary-tools',
  file: 'src/protocol/register-mcp-tools.ts',
  edits: [
    {
      find: `  for (const { spec, remoteName } of planned) {`,
      replace: `  for (const { spec, remoteName } of planned.slice(0, 1)) { // MUTANT`,
    },
  ],
  caughtBy: [
    "registers every listed tool and returns how many it registered",
    "Any server › for any tools, prefix, risk option and registry: registers, refuses and forwards as the reference does",
  ],
} satisfies Mutant;
