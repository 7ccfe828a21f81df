import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the number of registered tools not returned",
  why: "The caller (the Chapter loop's \"Connect and merge\") cannot say how many tools arrived.",
  section: 'ordinary-tools',
  file: 'src/protocol/register-mcp-tools.ts',
  edits: [
    {
      find: `  return planned.length;
}`,
      replace: `  return undefined as unknown as number; // MUTANT: forgot the count
}`,
    },
  ],
  caughtBy: [
    "registers every listed tool and returns how many it registered",
    "Any server › for any tools, prefix, risk option and registry: registers, refuses and forwards as the reference does",
  ],
} satisfies Mutant;
