import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the mutual version picked in the server's order of preference, not the client's",
  why: "Client and server may end up on an older revision than both speak; the client gives up its own preference.",
  section: "discover",
  file: "src/protocol/era/probe.ts",
  edits: [
    { find: "      const version = pickMutualVersion(context.ours, discover.supportedVersions);", replace: "      const version = discover.supportedVersions.find((v) => context.ours.includes(v)); // MUTANT: server's order" },
  ],
  caughtBy: ["our order of preference decides which mutual version, not the server's", "for any answer to server/discover: the same verdict as the reference"],
} satisfies Mutant;
