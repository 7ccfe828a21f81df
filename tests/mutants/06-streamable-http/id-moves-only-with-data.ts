import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a block with an id but no data leaves the last event id where it was",
  why: "An id-only block is how a server moves the resume cursor; ignoring it resumes from too early and replays what already arrived.",
  section: "sse",
  file: "src/protocol/framing/sse.ts",
  edits: [
    { find: "    this.lastId = this.idBuffer;\n", replace: "    if (this.dataLines.length > 0) this.lastId = this.idBuffer; // MUTANT\n" },
  ],
  caughtBy: ["id persists across events and moves even on a block without data; an id holding U+0000 is ignored", "Any exchange › for any events, line ends and chunking: the same events, lastEventId and retry as the reference"],
} satisfies Mutant;
