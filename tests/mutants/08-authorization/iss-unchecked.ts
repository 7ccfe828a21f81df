import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the redirect's iss not compared with the issuer",
  why: "A code from another authorization server is redeemed at this one: the mix-up attack RFC 9207 closes.",
  section: "authorization-request",
  file: "src/protocol/auth/authorization-request.ts",
  edits: [
    { find: "if (iss !== null && iss !== issuer)", replace: "if (false /* MUTANT: iss unchecked */)" },
  ],
  caughtBy: ["refuses an iss that is not the issuer (a mix-up), and a missing one when the server promised it", "takes a redirect without iss from a server that does not send one, but still refuses a wrong one"],
} satisfies Mutant;
