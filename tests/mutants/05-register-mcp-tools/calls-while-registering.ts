import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "each tool tried out while registering",
  why: "Registering must call nothing on the server: a trial call runs tools with side effects before the model or the user asked for them.",
  section: 'thin-forwarder',
  file: 'src/protocol/register-mcp-tools.ts',
  edits: [
    {
      find: `    const name = prefix + tool.name;`,
      replace: `    await client.callTool(tool.name, {}); // MUTANT: a trial call
    const name = prefix + tool.name;`,
    },
  ],
  caughtBy: [
    "calls nothing on the server while registering",
    "Any server › for any tools, prefix, risk option and registry: registers, refuses and forwards as the reference does",
  ],
} satisfies Mutant;
