import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "tools/list reports names only",
  why: "Without description and inputSchema the model does not know what a tool does or how to call it.",
  section: 'tools',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: `    const tools = [...this.#tools.values()].map((tool) => tool.info);`,
      replace: `    const tools = [...this.#tools.values()].map((tool) => ({ name: tool.info.name }) as ToolInfo); // MUTANT`,
    },
  ],
  caughtBy: [
    "tools/list reports every tool with its name, description and inputSchema",
    "Any sequence of messages › for any messages, in strict and lenient mode: answers each one as the reference does, and moves through the same phases",
  ],
} satisfies Mutant;
