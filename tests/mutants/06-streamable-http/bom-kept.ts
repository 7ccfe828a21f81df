import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the byte order mark at the start of the stream is kept",
  why: "The first line then starts with U+FEFF, so its field name is not 'data' and the first event is lost.",
  section: "sse",
  file: "src/protocol/framing/sse.ts",
  edits: [
    { find: "  private readonly decoder = new TextDecoder('utf-8');", replace: "  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true }); // MUTANT: BOM kept" },
  ],
  caughtBy: ["drops one BOM at the very start of the stream"],
} satisfies Mutant;
