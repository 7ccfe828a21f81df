import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a tools/call without arguments refused',
  why: 'arguments is optional in tools/call: a client that leaves it out for a tool with no parameters (many do) gets -32602 instead of the tool\'s answer, and the model never learns what the tool would have said.',
  section: 'tools',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: '    const args = params.arguments ?? {};',
      replace: '    const args = params.arguments; // MUTANT: a missing arguments is not read as {}',
    },
  ],
  caughtBy: ['tools/call without arguments reads them as {}: a tool without required parameters runs, one with them gets an isError result'],
} satisfies Mutant;
