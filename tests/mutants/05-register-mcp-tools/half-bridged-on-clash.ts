import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a remote tool name colliding with a local one, found only on registration (the chapter's own shape)",
  why: "Each tool is registered as it is read, so the registry's DuplicateToolError surfaces only when the clashing tool is reached and the tools listed before it stay registered: the error is explicit, but the registry is left half-bridged.",
  section: 'namespacing',
  file: 'src/protocol/register-mcp-tools.ts',
  edits: [
    {
      find: '    if (registry.has(name) || plannedNames.has(name)) throw clashError(name, tool.name, options.server);',
      replace: '    // MUTANT: no check here; registry.register below throws on the first clash, after earlier tools went in',
    },
  ],
  caughtBy: [
    'a clash registers nothing from that server, not even the tools listed before it',
    'a server that lists the same name twice is a clash too',
  ],
} satisfies Mutant;
