import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a verifier from 16 random bytes",
  why: "22 characters is below RFC 7636's minimum of 43: a server refuses it, and fewer bits are easier to guess.",
  section: "pkce",
  file: "src/protocol/auth/pkce.ts",
  edits: [
    { find: "  return bytesToBase64Url(randomBytes(32));", replace: "  return bytesToBase64Url(randomBytes(16)); // MUTANT: 16 bytes" },
  ],
  caughtBy: ["createCodeVerifier asks for 32 bytes and encodes them as base64url without padding"],
} satisfies Mutant;
