import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the authorization request without resource",
  why: "Without RFC 8707's resource the token is not bound to this MCP server: any server it is shown to could use it (the audience rule).",
  section: "authorization-request",
  file: "src/protocol/auth/authorization-request.ts",
  edits: [
    { find: "  query.set('resource', request.resource);\n", replace: "  // MUTANT: no resource\n" },
  ],
  caughtBy: ["carries response_type, client_id, redirect_uri, PKCE S256, state, resource and scope, and keeps the endpoint's own query"],
} satisfies Mutant;
