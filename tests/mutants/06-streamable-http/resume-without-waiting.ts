import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the client reconnects at once, ignoring retry",
  why: "The specification says the client MUST wait retry ms; a server that polls gets a reconnect storm.",
  section: "resume",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "      await this.sleep(retryMs); // the server's retry: a MUST before reconnecting\n", replace: "      // MUTANT: no wait\n" },
  ],
  caughtBy: ["a stream that ends before its response: wait the server's retry, then GET with Last-Event-ID and the session headers", "Any exchange › for any session: the same requests and headers, the same answers, notifications and waits as the reference"],
} satisfies Mutant;
