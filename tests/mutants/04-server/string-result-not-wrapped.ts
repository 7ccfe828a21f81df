import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a tool's string returned as the result itself",
  why: "A result must be { content: [...] }; a bare string is not a CallToolResult, so the client cannot read it.",
  section: 'tools',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: `    if (typeof output === 'string') return { content: [{ type: 'text', text: output }] };`,
      replace: `    if (typeof output === 'string') return { content: [{ type: 'text', text: output }], text: output } as CallToolResult; // MUTANT: an extra field`,
    },
  ],
  caughtBy: [
    "tools/call runs echo and returns its text as one text content block",
    "Any sequence of messages › for any messages, in strict and lenient mode: answers each one as the reference does, and moves through the same phases",
  ],
} satisfies Mutant;
