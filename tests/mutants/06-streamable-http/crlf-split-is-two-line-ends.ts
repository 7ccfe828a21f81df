import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a CRLF split across two chunks counts as two line ends",
  why: "The LF that completes the CR is read as a blank line of its own: the event is dispatched early and its next data line starts a new one.",
  section: "sse",
  file: "src/protocol/framing/sse.ts",
  edits: [
    { find: "          if (lineStart === end) this.skipLf = true;", replace: "          if (lineStart === end) this.skipLf = false; // MUTANT: the LF that may follow is forgotten" },
  ],
  caughtBy: ["reads CRLF, LF and CR line ends, a CRLF split across two chunks too", "Any exchange › for any events, line ends and chunking: the same events, lastEventId and retry as the reference"],
} satisfies Mutant;
