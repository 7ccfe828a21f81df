// Hands the one ExerciseStore to the components that render it (created in main.tsx, like the
// live session, so tests and other entry points can pass their own).
import { createContext, useContext } from 'react';
import type { ExerciseStore } from '../../app/exercise/exercise-store.ts';

export const ExerciseContext = createContext<ExerciseStore | null>(null);

export function useExercises(): ExerciseStore {
  const exercises = useContext(ExerciseContext);
  if (exercises === null) throw new Error('useExercises needs an <ExerciseContext.Provider> above it');
  return exercises;
}
