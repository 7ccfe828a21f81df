import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'the local (prefixed) name forwarded to tools/call',
  why: 'The server knows only its own name, so every call through a prefix fails with "unknown tool" (-32602, or an isError result from SDK 1.x servers); without a prefix the bug is invisible.',
  section: 'thin-forwarder',
  file: 'src/protocol/register-mcp-tools.ts',
  edits: [
    {
      find: '    registry.register(spec, async (args) => mcpResultToText(await client.callTool(remoteName, args)));',
      replace: '    registry.register(spec, async (args) => mcpResultToText(await client.callTool(spec.name, args))); // MUTANT: prefixed name',
    },
  ],
  caughtBy: [
    'puts the prefix before every remote name, and still calls the server with the remote name',
    'with a prefix, a remote "add" lives next to the local "add"',
  ],
} satisfies Mutant;
