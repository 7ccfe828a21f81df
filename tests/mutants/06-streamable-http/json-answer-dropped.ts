import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a JSON response body is read but never handed to the client",
  why: "The caller waits for an answer that already arrived, until its timeout.",
  section: "responses",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "        this.receive(JSON.parse(text));", replace: "        JSON.parse(text); // MUTANT: never delivered" },
  ],
  caughtBy: ["a request answered with application/json: the result reaches the caller", "Any exchange › for any session: the same requests and headers, the same answers, notifications and waits as the reference"],
} satisfies Mutant;
