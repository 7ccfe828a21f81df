import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "initialize answered without capabilities.tools",
  why: "A client only lists and calls tools when the server declared the tools capability: without it, a careful client never asks.",
  section: 'initialize',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: `      capabilities: { tools: { listChanged: false } },`,
      replace: `      capabilities: {}, // MUTANT: tools not declared`,
    },
  ],
  caughtBy: [
    "answers initialize with protocolVersion, capabilities.tools and serverInfo",
    "Any sequence of messages › for any messages, in strict and lenient mode: answers each one as the reference does, and moves through the same phases",
  ],
} satisfies Mutant;
