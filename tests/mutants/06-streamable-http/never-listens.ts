import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the server's own stream is never opened",
  why: "Requests and notifications the server sends on its own (list_changed, sampling) never reach the client.",
  section: "session",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "    if (this.options.listen === false || this.listening || this.closed) return;", replace: "    if (this.options.listen !== 'MUTANT' as unknown) return;" },
  ],
  caughtBy: ["with listen, opens the server's own stream after initialized: GET, Accept text/event-stream, the session headers"],
} satisfies Mutant;
