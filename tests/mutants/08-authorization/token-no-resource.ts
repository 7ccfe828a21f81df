import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the token request without resource",
  why: "The token endpoint must see the same resource as the authorization request, or the token is not bound to the MCP server (RFC 8707).",
  section: "token-request",
  file: "src/protocol/auth/token-request.ts",
  edits: [
    { find: "  fields.resource = resource;\n", replace: "  // MUTANT: no resource\n" },
  ],
  caughtBy: ["a code: grant_type, code, the same redirect_uri, code_verifier, resource, and client_id for a public client"],
} satisfies Mutant;
