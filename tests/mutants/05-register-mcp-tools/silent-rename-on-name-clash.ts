import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a remote tool name colliding with a local one, renamed silently',
  why: 'The "helpful" version: a taken name gets a suffix ("add" -> "add_2") instead of an error. Registration succeeds, but the model now sees two adds with no namespace to tell them apart, and the name depends on load order.',
  section: 'namespacing',
  file: 'src/protocol/register-mcp-tools.ts',
  edits: [
    {
      find: '    const name = prefix + tool.name;',
      replace: '    let name = prefix + tool.name;\n' +
        '    for (let n = 2; registry.has(name) || plannedNames.has(name); n++) name = `${prefix}${tool.name}_${n}`; // MUTANT: renamed silently',
    },
  ],
  caughtBy: ['without a prefix, a clash with a local tool is a DuplicateToolError, never a silent skip or overwrite'],
} satisfies Mutant;
