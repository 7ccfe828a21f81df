import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "POST without Content-Type",
  why: "The server cannot know the body is JSON and answers 415 Unsupported Media Type.",
  section: "headers",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "headers: this.headers({ accept: ACCEPT_POST, 'content-type': 'application/json' }),", replace: "headers: this.headers({ accept: ACCEPT_POST }), // MUTANT: no Content-Type" },
  ],
  caughtBy: ["initialize: a POST with Accept listing application/json and text/event-stream, Content-Type application/json, and no session headers yet"],
} satisfies Mutant;
