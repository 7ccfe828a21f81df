import { useTranslation } from 'react-i18next';
import { localized } from '../../exercise/catalogue.ts';
import type { Exercise } from '../../exercise/types.ts';
import { breakItOf, liveSceneOf, nextExerciseId } from '../../app/exercise/next-station.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { useLocale } from '../hooks/use-locale.ts';

/**
 * Shown once every test passes: where the code just written meets the real server, the failure
 * cards that break it, then the next exercise (or the end of the chapter). Links and a button, so
 * the keyboard reaches each.
 */
export function NextStation({ exercise }: { exercise: Exercise }) {
  const { t } = useTranslation('exercise');
  const locale = useLocale();
  const exercises = useExercises();
  const scene = liveSceneOf(exercise.meta.order);
  const breakIt = breakItOf(exercise.meta.order);
  const nextId = nextExerciseId(
    exercises.exercises.map((entry) => entry.meta.id),
    exercise.meta.id,
  );
  const next = nextId === undefined ? undefined : exercises.find(nextId);
  return (
    <nav className="next-station" aria-label={t('next.label')} data-testid="next-station">
      {scene && (
        <a className="next-station__live" href={scene.hash} data-testid="next-live">
          {t('next.seeItLive', { scene: t(`next.scene.${scene.key}`) })}
        </a>
      )}
      {breakIt && (
        <a className="next-station__break" href={breakIt.hash} data-testid="next-break">
          {t('next.breakIt', { cards: t(`next.break.${breakIt.key}`) })}
        </a>
      )}
      {next ? (
        <button type="button" className="next-station__next" data-testid="next-exercise" onClick={() => exercises.select(next.meta.id)}>
          {t('next.exercise', { number: next.meta.order, title: localized(next.meta.title, locale) })}
        </button>
      ) : (
        <p className="next-station__done">{t('next.chapterDone')}</p>
      )}
    </nav>
  );
}
