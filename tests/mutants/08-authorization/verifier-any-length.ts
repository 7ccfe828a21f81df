import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "any text taken as a verifier",
  why: "A verifier outside 43-128 unreserved characters is refused by the server at the token endpoint, after the person has already signed in.",
  section: "pkce",
  file: "src/protocol/auth/pkce.ts",
  edits: [
    { find: "const VERIFIER = /^[A-Za-z0-9\\-._~]{43,128}$/;", replace: "const VERIFIER = /^[^]*$/; // MUTANT: anything" },
  ],
  caughtBy: ["isCodeVerifier: 43 to 128 unreserved characters, nothing else", "codeChallengeS256 refuses text that is not a verifier with a RangeError"],
} satisfies Mutant;
