import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "client_id in the form besides HTTP Basic",
  why: "Two ways of authenticating in one request: RFC 6749 says a client MUST NOT use more than one, and strict servers refuse it.",
  section: "token-request",
  file: "src/protocol/auth/token-request.ts",
  edits: [
    { find: "  else fields.client_id = client.clientId;", replace: "  fields.client_id = client.clientId; // MUTANT: always in the form" },
  ],
  caughtBy: ["client_secret_basic: the Authorization header, and no client_id or secret in the form"],
} satisfies Mutant;
