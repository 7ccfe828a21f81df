import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the verifier sent as its own challenge (plain instead of S256)",
  why: "With the plain method the challenge is the verifier, so whoever sees the authorization request can redeem a stolen code: MCP requires S256.",
  section: "pkce",
  file: "src/protocol/auth/pkce.ts",
  edits: [
    { find: "  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));\n  return bytesToBase64Url(new Uint8Array(digest));", replace: "  return verifier; // MUTANT: plain" },
  ],
  caughtBy: ["gives RFC 7636 Appendix B's challenge for its verifier"],
} satisfies Mutant;
