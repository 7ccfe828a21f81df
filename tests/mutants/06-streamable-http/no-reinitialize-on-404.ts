import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a 404 is an ordinary error: no new session",
  why: "After a server restart every request fails, though the specification says the client MUST start a new session.",
  section: "session",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "    if (response.status === 404 && hadSession &&", replace: "    if (response.status === 4040 && hadSession && /* MUTANT */" },
  ],
  caughtBy: ["a 404 for a request that carried the session: initialize again without a session id, send initialized, then the request once more", "Any exchange › for any session: the same requests and headers, the same answers, notifications and waits as the reference"],
} satisfies Mutant;
