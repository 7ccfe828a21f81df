import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a DiscoverResult listing only modern versions we lack read as a legacy server",
  why: "Only a modern server answers server/discover with a DiscoverResult: falling back to initialize sends it a handshake it may not speak, and hides the real failure (no version in common).",
  section: "fallback",
  file: "src/protocol/era/probe.ts",
  edits: [
    { find: "      return { kind: 'fail', reason: `${offered}, and no handshake-era version to fall back to` };", replace: "      return { kind: 'legacy', reason: 'MUTANT: none of ours' };" },
  ],
  caughtBy: ["a DiscoverResult listing only modern versions we lack, or none at all, comes from a modern server: fail, never legacy"],
} satisfies Mutant;
