import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "any URL scheme taken for discovery",
  why: "A javascript: or file: URL from a hostile challenge would be fetched or opened; only http(s) may be.",
  section: "discovery",
  file: "src/protocol/auth/discovery-urls.ts",
  edits: [
    { find: "  return parseHttpUrl(value, what, (message) => new DiscoveryUrlError(message));", replace: "  return new URL(value); // MUTANT: any scheme" },
  ],
  caughtBy: ["refuses what is not an absolute http(s) URL, never guessing"],
} satisfies Mutant;
