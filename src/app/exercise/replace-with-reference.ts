// "Use the reference" → "Replace my code", once the learner confirmed. React-free and Monaco-free
// (the diff editor is seen through the little of it used here), so it is tested in Node.

import type { ExerciseStore } from './exercise-store.ts';

/** The Solve view's diff editor, as this needs it: dispose() lets go of the editor and its view model. */
export interface DiffEditorLike {
  dispose(): void;
}

/**
 * The store takes the reference at once: the code a Run uses is the store's, so Run tests right
 * after the confirmation runs the reference, whatever the editors are doing. The diff editor goes
 * first: disposing its view model cancels a diff still being computed against the old text
 * (applied to the replaced model, it would throw: line ranges out of bounds). The view is
 * switching back to the code editor anyway, which unmounts the diff view.
 */
export function replaceWithReference(store: Pick<ExerciseStore, 'useReference'>, id: string, source: string, diff: DiffEditorLike | null): void {
  diff?.dispose();
  store.useReference(id, source);
}
