import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "any result to server/discover taken as modern",
  why: "A server that answers unknown methods with an empty result is taken for a modern one, and the session runs in an era the server does not speak.",
  section: "fallback",
  file: "src/protocol/era/probe.ts",
  edits: [
    { find: "      if (discover === undefined) return { kind: 'legacy', reason: 'the answer to server/discover is not a DiscoverResult' };", replace: "      if (discover === undefined) return { kind: 'modern', version: context.ours[0]!, discover: { supportedVersions: [], capabilities: {} } }; // MUTANT" },
  ],
  caughtBy: ["an answer that is not a DiscoverResult, or a DiscoverResult listing none of ours but a handshake-era version, means legacy"],
} satisfies Mutant;
