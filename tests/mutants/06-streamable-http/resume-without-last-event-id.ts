import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the resume GET has no Last-Event-ID",
  why: "Without the header the GET opens the server's own stream, not the dropped one: the answer never comes.",
  section: "resume",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "    if (cursor !== '') headers[HEADER.lastEventId] = cursor;\n", replace: "    // MUTANT: no Last-Event-ID\n" },
  ],
  caughtBy: ["a stream that ends before its response: wait the server's retry, then GET with Last-Event-ID and the session headers", "Any exchange › for any session: the same requests and headers, the same answers, notifications and waits as the reference"],
} satisfies Mutant;
