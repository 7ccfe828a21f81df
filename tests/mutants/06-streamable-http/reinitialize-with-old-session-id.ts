import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the new initialize still carries the dead session id",
  why: "The server treats it as a request in an unknown session (404) instead of a new handshake, so the session is never restored.",
  section: "session",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "      this.initializeRequest = request;\n      this.sessionId = undefined;\n", replace: "      this.initializeRequest = request;\n      // MUTANT: the old session id stays\n" },
  ],
  caughtBy: ["a 404 for a request that carried the session: initialize again without a session id, send initialized, then the request once more", "Any exchange › for any session: the same requests and headers, the same answers, notifications and waits as the reference"],
} satisfies Mutant;
