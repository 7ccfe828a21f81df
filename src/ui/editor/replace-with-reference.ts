// "Use the reference" → "Replace my code", once the learner confirmed. React-free and Monaco-free
// (the diff editor is seen through the little of it used here), so it is tested in Node.

import type { ExerciseStore } from '../stores/exercise-store.ts';

/** The part of Monaco's diff editor this needs. */
export interface DiffEditorLike {
  dispose(): void;
}

/**
 * The store takes the reference at once: the code a Run uses is the store's, so Run tests right
 * after the confirmation runs the reference, whatever the editors are doing. The diff editor goes
 * first: disposing it drops its view model, which cancels a diff still being computed against
 * the old text (applied to the replaced model, it would throw: line ranges out of bounds). The
 * view is switching back to the code editor anyway, which unmounts the diff view.
 */
export function replaceWithReference(store: Pick<ExerciseStore, 'useReference'>, id: string, source: string, diff: DiffEditorLike | null): void {
  diff?.dispose();
  store.useReference(id, source);
}
