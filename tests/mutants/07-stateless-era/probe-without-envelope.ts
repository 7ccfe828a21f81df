import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "server/discover sent without the _meta envelope",
  why: "A modern server validates the envelope on every request, server/discover included: it answers -32602 and the client wrongly falls back to the handshake.",
  section: "envelope",
  file: "src/protocol/era/modern-session.ts",
  edits: [
    { find: "withEnvelope(undefined, envelope)", replace: "{} /* MUTANT: probe without _meta */" },
  ],
  caughtBy: ["the server/discover probe carries the full envelope too, and nothing else"],
} satisfies Mutant;
