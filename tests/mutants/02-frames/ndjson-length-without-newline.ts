import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a line's length given without its newline",
  why: "The line reader reports each line one byte short, so the viewer loses the newline and the offsets it shows no longer add up to the stream.",
  section: 'byte-stream',
  file: 'src/protocol/framing/ndjson.ts',
  edits: [
    {
      find: `    const length = beforeNewline + 1;`,
      replace: `    const length = beforeNewline; // MUTANT: the newline not counted`,
    },
  ],
  caughtBy: [
    "LineReader › for any lines in any chunks: returns the same items from each push, and holds the same bytes, as the reference",
  ],
} satisfies Mutant;
