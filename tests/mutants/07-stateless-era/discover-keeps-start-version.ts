import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the version the server chose in server/discover is ignored",
  why: "The client goes on offering a version the server did not pick; every later request costs a -32022 round trip, or fails.",
  section: "discover",
  file: "src/protocol/era/modern-session.ts",
  edits: [
    { find: "    if (verdict.kind === 'modern') this.currentVersion = verdict.version;\n", replace: "" },
  ],
  caughtBy: ["offers our preferred version first and settles on the first of ours the server lists"],
} satisfies Mutant;
