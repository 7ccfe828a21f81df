import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a missing iss accepted from a server that promised one",
  why: "A server that sends iss on every response never sends one without: a redirect without it did not come from that server.",
  section: "authorization-request",
  file: "src/protocol/auth/authorization-request.ts",
  edits: [
    { find: "if (iss === null && issParameterSupported)", replace: "if (false /* MUTANT: iss optional */)" },
  ],
  caughtBy: ["refuses an iss that is not the issuer (a mix-up), and a missing one when the server promised it"],
} satisfies Mutant;
