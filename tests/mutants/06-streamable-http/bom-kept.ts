import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the byte order mark at the start of the stream is kept",
  why: "The first line then starts with U+FEFF, so its field name is not 'data' and the first event is lost.",
  section: "sse",
  file: "src/protocol/framing/sse.ts",
  edits: [
    { find: "    if (this.lineOffset === 0 && length >= 3 && bytes[start] === BOM_0 && bytes[start + 1] === BOM_1 && bytes[start + 2] === BOM_2) {", replace: "    if (false) { // MUTANT: BOM kept" },
  ],
  caughtBy: ["drops one BOM at the very start of the stream"],
} satisfies Mutant;
