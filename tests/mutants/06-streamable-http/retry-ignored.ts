import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the server's retry is ignored: always the default delay",
  why: "A server that asks for a longer pause (or a shorter one) is not heeded.",
  section: "resume",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "        retryMs = reader.retry ?? retryMs;", replace: "        retryMs = this.retryDefault; // MUTANT" },
  ],
  caughtBy: ["a stream that ends before its response: wait the server's retry, then GET with Last-Event-ID and the session headers", "Any exchange › for any session: the same requests and headers, the same answers, notifications and waits as the reference"],
} satisfies Mutant;
