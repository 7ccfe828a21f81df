import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the priming event's empty data is parsed as JSON",
  why: "Every stream starts with a parse error: the empty data only carries the id to resume from.",
  section: "responses",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "              if (item.event.data === '') continue; // the priming event, or a keep-alive\n", replace: "" },
  ],
  caughtBy: ["a request answered with text/event-stream: the priming event is skipped, related notifications come first, then the result"],
} satisfies Mutant;
