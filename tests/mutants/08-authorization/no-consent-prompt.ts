import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "offline_access asked for without prompt=consent",
  why: "OpenID Connect servers (oidc-provider among them) drop offline_access without consent: the client never gets its refresh token.",
  section: "authorization-request",
  file: "src/protocol/auth/authorization-request.ts",
  edits: [
    { find: "  if (request.scope?.split(' ').includes('offline_access')) query.set('prompt', 'consent');\n", replace: "  // MUTANT: no prompt\n" },
  ],
  caughtBy: ["asks for consent with offline_access, and only then"],
} satisfies Mutant;
