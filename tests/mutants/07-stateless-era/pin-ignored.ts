import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a pin is ignored: the probe offers the default versions",
  why: "A client pinned to one revision must speak exactly it or fail loudly; here it silently talks another one.",
  section: "discover",
  file: "src/protocol/era/modern-session.ts",
  edits: [
    { find: "    const ours = options.versions ?? this.options.versions;", replace: "    const ours = this.options.versions; // MUTANT: pin ignored" },
  ],
  caughtBy: ["a pin offers only the pinned version"],
} satisfies Mutant;
