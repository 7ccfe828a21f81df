// The lesson, hints and test names of one exercise in the UI language, loaded when a view shows
// them: asks the store for them and renders again when they are in (or could not be loaded).
import { useEffect } from 'react';
import type { Locale } from '../../exercise/types.ts';
import type { ExerciseStore, TextStatus } from '../../app/exercise/exercise-store.ts';
import { useStoreSelector } from './use-store.ts';

export function useExerciseText(store: ExerciseStore, id: string | null, locale: Locale): TextStatus {
  const status = useStoreSelector(store, (state) => (id === null ? 'ready' : store.textStatus(id, locale, state)));
  // A load that failed is tried again when the exercise or the language changes, not in a loop.
  useEffect(() => {
    if (id !== null) store.loadText(id, locale);
  }, [store, id, locale]);
  return status;
}
