import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the token request without code_verifier",
  why: "The server refuses the code (invalid_grant): PKCE is only a proof if the verifier is sent.",
  section: "token-request",
  file: "src/protocol/auth/token-request.ts",
  edits: [
    { find: ", code_verifier: grant.codeVerifier }", replace: " } // MUTANT: no verifier" },
  ],
  caughtBy: ["a code: grant_type, code, the same redirect_uri, code_verifier, resource, and client_id for a public client"],
} satisfies Mutant;
