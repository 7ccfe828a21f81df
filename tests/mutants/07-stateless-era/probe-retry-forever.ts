import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a second -32022 to the probe answered with a third probe",
  why: "The probe should settle after one retry; a server that keeps refusing keeps the client probing.",
  section: "version-retry",
  file: "src/protocol/era/modern-session.ts",
  edits: [
    { find: "      verdict = await this.probe(version, ours, options);\n    }", replace: "      verdict = await this.probe(version, ours, options);\n      if (verdict.kind === 'retry') verdict = await this.probe(verdict.version, ours, options); // MUTANT: a third probe\n    }" },
  ],
  caughtBy: ["a second -32022 to the probe is a failure, not a third probe"],
} satisfies Mutant;
