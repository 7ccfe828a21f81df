import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a stream that sent no event id is \"resumed\" anyway, with a GET that names no event",
  why: "Without Last-Event-ID the GET opens the server's own stream, not the dropped one: the request waits for an answer that will never come on it.",
  section: "resume",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "      if (cursor === '' && requestId !== undefined) return this.fail({ id: requestId }, 'the SSE stream ended before the response, with no event id to resume from');\n", replace: "      // MUTANT: no cursor, resumed anyway\n" },
  ],
  caughtBy: ["a stream that carried no event id cannot be resumed: the caller gets an error, and no GET is sent"],
} satisfies Mutant;
