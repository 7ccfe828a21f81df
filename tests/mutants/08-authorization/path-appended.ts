import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the issuer's path appended after the well-known name instead of inserted",
  why: "RFC 8414 inserts the well-known name between host and path; an appended path finds nothing at a multi-tenant authorization server.",
  section: "discovery",
  file: "src/protocol/auth/discovery-urls.ts",
  edits: [
    { find: "    `${origin}/.well-known/oauth-authorization-server${path}`,", replace: "    `${origin}${path}/.well-known/oauth-authorization-server`, // MUTANT: appended" },
  ],
  caughtBy: ["an issuer with a path: both well-known names inserted, then OpenID's appended"],
} satisfies Mutant;
