import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the executor returns the raw result as JSON",
  why: "The model reads {\"content\":[{\"type\":\"text\",...}]} instead of the text, with base64 pasted in and the isError flag buried.",
  section: 'thin-forwarder',
  file: 'src/protocol/register-mcp-tools.ts',
  edits: [
    {
      find: `    registry.register(spec, async (args) => mcpResultToText(await client.callTool(remoteName, args)));`,
      replace: `    registry.register(spec, async (args) => JSON.stringify(await client.callTool(remoteName, args))); // MUTANT`,
    },
  ],
  caughtBy: [
    "forwards a call to tools/call with the arguments, and returns the result as text",
    "Any server › for any tools, prefix, risk option and registry: registers, refuses and forwards as the reference does",
  ],
} satisfies Mutant;
