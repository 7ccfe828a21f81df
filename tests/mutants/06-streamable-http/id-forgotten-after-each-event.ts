import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the event id does not persist: each event without an id field has id ''",
  why: "After an event without an id the client has no cursor, so a drop there cannot be resumed (or resumes from the start).",
  section: "sse",
  file: "src/protocol/framing/sse.ts",
  edits: [
    { find: "    this.eventType = '';\n    this.eventOffset = -1;", replace: "    this.eventType = '';\n    this.idBuffer = ''; // MUTANT: the id does not persist\n    this.eventOffset = -1;" },
  ],
  caughtBy: ["id persists across events and moves even on a block without data; an id holding U+0000 is ignored", "Any exchange › for any events, line ends and chunking: the same events, lastEventId and retry as the reference"],
} satisfies Mutant;
