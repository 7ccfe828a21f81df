import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "Accept lists only application/json",
  why: "The specification requires both types; the server answers 406 Not Acceptable to every POST.",
  section: "headers",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "const ACCEPT_POST = 'application/json, text/event-stream';", replace: "const ACCEPT_POST = 'application/json'; // MUTANT" },
  ],
  caughtBy: ["initialize: a POST with Accept listing application/json and text/event-stream, Content-Type application/json, and no session headers yet"],
} satisfies Mutant;
