import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "HTTP Basic credentials joined without form-urlencoding",
  why: "A client id or secret with a colon, space or non-ASCII character is split or read wrongly by the server (RFC 6749 §2.3.1).",
  section: "token-request",
  file: "src/protocol/auth/token-request.ts",
  edits: [
    { find: "  const encode = (text: string) => new URLSearchParams({ x: text }).toString().slice(2);", replace: "  const encode = (text: string) => text; // MUTANT: not encoded" },
  ],
  caughtBy: ["basicCredentials form-urlencodes each part before joining them with a colon"],
} satisfies Mutant;
