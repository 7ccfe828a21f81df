import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "an SSE response is drained instead of read",
  why: "A client that only supports JSON loses every answer a server streams (the client MUST support both).",
  section: "responses",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "    if (type === 'text/event-stream') return this.readStream(response, request.id);", replace: "    if (type === 'text/event-stream') return drain(response); // MUTANT" },
  ],
  caughtBy: ["a request answered with text/event-stream: the priming event is skipped, related notifications come first, then the result", "Any exchange › for any session: the same requests and headers, the same answers, notifications and waits as the reference"],
} satisfies Mutant;
