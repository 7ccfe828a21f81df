import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "text blocks joined with a space",
  why: "Blocks that were separate lines run together; the lesson joins them with \"\\n\".",
  section: 'failure-is-data',
  file: 'src/protocol/mcp-result-to-text.ts',
  edits: [
    {
      find: `  let body = blocks.map(blockToText).join('\\n');`,
      replace: `  let body = blocks.map(blockToText).join(' '); // MUTANT`,
    },
  ],
  caughtBy: [
    "joins the text blocks with a newline",
    "mcpResultToText › for any result of text blocks: exactly the reference's text",
  ],
} satisfies Mutant;
