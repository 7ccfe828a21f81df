import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the new handshake skips notifications/initialized",
  why: "The lifecycle is incomplete: a server that waits for it refuses the request that is sent again.",
  section: "session",
  file: "src/protocol/http/client-transport.ts",
  edits: [
    { find: "      await this.send({ jsonrpc: '2.0', method: 'notifications/initialized' }, true);\n", replace: "      // MUTANT: no initialized\n" },
  ],
  caughtBy: ["a 404 for a request that carried the session: initialize again without a session id, send initialized, then the request once more", "Any exchange › for any session: the same requests and headers, the same answers, notifications and waits as the reference"],
} satisfies Mutant;
