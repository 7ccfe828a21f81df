import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the challenge's resource_metadata ignored",
  why: "The server said where its metadata is; a client that guesses the well-known URLs instead fails against every server that publishes it elsewhere (auth/metadata-var3).",
  section: "discovery",
  file: "src/protocol/auth/discovery-urls.ts",
  edits: [
    { find: "  if (fromHeader !== undefined) return [httpUrl(fromHeader, 'resource_metadata').href];\n", replace: "  // MUTANT: the header's URL is ignored\n" },
  ],
  caughtBy: ["uses the challenge's resource_metadata alone when the server names it"],
} satisfies Mutant;
