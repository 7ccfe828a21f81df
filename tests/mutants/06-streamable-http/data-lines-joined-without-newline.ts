import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "data lines are concatenated with nothing between them",
  why: "A message split over two data lines loses its line break; two JSON lines become one invalid value.",
  section: "sse",
  file: "src/protocol/framing/sse.ts",
  edits: [
    { find: "this.dataLines.join('\\n')", replace: "this.dataLines.join('') /* MUTANT */" },
  ],
  caughtBy: ["dispatches an event at the blank line: data lines joined with \"\\n\", type \"message\" unless event names one", "Any exchange › for any events, line ends and chunking: the same events, lastEventId and retry as the reference"],
} satisfies Mutant;
