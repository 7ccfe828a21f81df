import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "closing never sends DELETE",
  why: "The server keeps the session (and its memory) until it times out.",
  section: "session",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "    if (this.sessionId !== undefined) {\n      // Tell the server", replace: "    if (this.sessionId === 'MUTANT: never') {\n      // Tell the server" },
  ],
  caughtBy: ["close() sends DELETE with the session id"],
} satisfies Mutant;
