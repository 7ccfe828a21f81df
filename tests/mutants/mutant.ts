// The shape of one mutant: a chapter failure mode put back into a reference module as a small
// patch, so the proof test (mutants.test.ts) can show that the exercise's spec catches it.
// A mutant is data, not a copy of the module: apply-mutant.ts patches the reference at test time,
// so a mutant can never silently drift from the code it claims to break.

/** One textual replacement. `find` must occur exactly once in the file (as already patched). */
export interface MutantEdit {
  find: string;
  replace: string;
}

export interface Mutant {
  /** The chapter's failure mode, in words. */
  failureMode: string;
  /** What goes wrong for the model, the client or the server when this bug ships. */
  why: string;
  /**
   * The lesson section (its `{#id}` in content.en.md) whose rule the bug breaks. The lesson-rule
   * map (tests/exercise-engine/lesson-rules.test.ts) requires at least three mutants per section
   * that states a rule.
   */
  section?: string;
  /** The reference file the bug is put into, project-root relative: 'src/protocol/…'. */
  file: string;
  /** Applied in order; each `find` is searched for in the text the previous edits left. */
  edits: readonly MutantEdit[];
  /**
   * Spec tests that must not pass on this mutant: a test title, or a full name
   * ('describe › title'). Checked by mutants.test.ts, so a mutant that fails only for an
   * unrelated reason is noticed.
   */
  caughtBy: readonly string[];
}
