import { useTranslation } from 'react-i18next';
import { exerciseHash } from '../../exercise/exercise-link.ts';
import { exerciseUnfinished } from '../../app/exercise/unfinished.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { useStoreSelector } from '../hooks/use-store.ts';

/**
 * Before a scene runs the learner's own code: "This runs your exercise N, which does not pass its
 * tests yet — Open exercise N", so a failure there is not read as the server's. Nothing once the
 * exercise passes. The link opens the exercise in the study view (`#exercise=<id>`).
 */
export function UnfinishedExerciseNote({ exerciseId }: { exerciseId: string }) {
  const { t } = useTranslation('common');
  const exercises = useExercises();
  const exercise = exercises.find(exerciseId);
  const completed = useStoreSelector(exercises.progress, (state) => state.exercises[exerciseId]?.completed === true);
  const run = useStoreSelector(exercises, () => exercises.runOf(exerciseId));
  if (!exercise || !exerciseUnfinished(completed, run)) return null;
  const number = exercise.meta.order;
  return (
    <p className="notice is-warning unfinished-exercise" data-testid="unfinished-exercise">
      {t('unfinished.note', { number })}
      <a href={exerciseHash(exerciseId)}>{t('unfinished.open', { number })}</a>
    </p>
  );
}
