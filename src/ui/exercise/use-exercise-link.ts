// Opens the exercise a `#exercise=<id>` address names (a lesson's link to another exercise, see
// src/exercise/exercise-link.ts): at first render and on every hashchange. The hash is then taken
// out of the address, so following the same link again works, and a reload stays where it is.

import { useEffect } from 'react';
import { exerciseIdOfHash } from '../../exercise/exercise-link.ts';
import type { ExerciseStore } from '../../app/exercise/exercise-store.ts';
import { clearAddressHash } from '../../app/progress-transfer/browser-file.ts';

export function useExerciseLinkFromAddress(exercises: Pick<ExerciseStore, 'select' | 'find'>, onOpened?: () => void): void {
  useEffect(() => {
    const open = () => {
      const id = exerciseIdOfHash(window.location.hash);
      if (id === undefined || exercises.find(id) === undefined) return;
      exercises.select(id);
      clearAddressHash();
      onOpened?.();
    };
    open();
    window.addEventListener('hashchange', open);
    return () => window.removeEventListener('hashchange', open);
  }, [exercises, onOpened]);
}
