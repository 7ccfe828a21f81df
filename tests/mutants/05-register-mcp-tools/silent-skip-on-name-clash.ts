import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a remote tool name colliding with a local one, skipped silently',
  why: 'The "defensive" version: the bridge catches the registry\'s DuplicateToolError and quietly skips the remote tool. Nothing fails, the tool simply never reaches the model, and nobody is told why.',
  section: 'namespacing',
  file: 'src/protocol/register-mcp-tools.ts',
  edits: [
    {
      find: '    if (registry.has(name) || plannedNames.has(name)) throw clashError(name, tool.name, options.server);',
      replace: '    if (plannedNames.has(name)) throw clashError(name, tool.name, options.server); // MUTANT: the registry is not asked',
    },
    {
      find: '    registry.register(spec, async (args) => mcpResultToText(await client.callTool(remoteName, args)));',
      replace: `    try {
      registry.register(spec, async (args) => mcpResultToText(await client.callTool(remoteName, args)));
    } catch (error) {
      if (error instanceof DuplicateToolError) continue; // MUTANT: a clash is swallowed, the tool skipped
      throw error;
    }`,
    },
  ],
  caughtBy: [
    'without a prefix, a clash with a local tool is a DuplicateToolError, never a silent skip or overwrite',
    'a clash registers nothing from that server, not even the tools listed before it',
  ],
} satisfies Mutant;
