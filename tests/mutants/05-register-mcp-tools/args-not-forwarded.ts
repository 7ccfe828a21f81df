import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the arguments not forwarded",
  why: "tools/call goes out without arguments: echo answers with nothing, and every tool with a required parameter fails.",
  section: 'thin-forwarder',
  file: 'src/protocol/register-mcp-tools.ts',
  edits: [
    {
      find: `    registry.register(spec, async (args) => mcpResultToText(await client.callTool(remoteName, args)));`,
      replace: `    registry.register(spec, async () => mcpResultToText(await client.callTool(remoteName))); // MUTANT`,
    },
  ],
  caughtBy: [
    "forwards a call to tools/call with the arguments, and returns the result as text",
    "Any server › for any tools, prefix, risk option and registry: registers, refuses and forwards as the reference does",
  ],
} satisfies Mutant;
