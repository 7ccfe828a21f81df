import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the redirect's state not checked",
  why: "Without the state check an attacker's redirect (with the attacker's own code) is accepted: the victim's client ends up signed in as the attacker (CSRF).",
  section: "authorization-request",
  file: "src/protocol/auth/authorization-request.ts",
  edits: [
    { find: "if (query.get('state') !== expected.state)", replace: "if (false /* MUTANT: state unchecked */)" },
  ],
  caughtBy: ["refuses another state, or none: the redirect was not for this request"],
} satisfies Mutant;
