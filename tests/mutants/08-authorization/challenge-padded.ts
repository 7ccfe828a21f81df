import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the PKCE challenge with base64 padding",
  why: "RFC 7636 says BASE64URL without padding; a server compares strings, so a challenge with '=' never matches the verifier it is sent later.",
  section: "pkce",
  file: "src/protocol/auth/pkce.ts",
  edits: [
    { find: "  return bytesToBase64Url(new Uint8Array(digest));", replace: "  return `${bytesToBase64Url(new Uint8Array(digest))}=`; // MUTANT: padded" },
  ],
  caughtBy: ["gives RFC 7636 Appendix B's challenge for its verifier", "a challenge is 43 base64url characters: no padding, no + or /"],
} satisfies Mutant;
