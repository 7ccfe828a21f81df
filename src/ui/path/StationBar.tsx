import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { localized } from '../../exercise/catalogue.ts';
import { afterStation, nextExerciseId, stationAt } from '../../app/exercise/next-station.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { useLocale } from '../hooks/use-locale.ts';
import { useStoreSelector } from '../hooks/use-store.ts';
import './station-bar.css';

/** The study view's address: "Back" and the next exercise land there. */
const STUDY_HASH = '#workspace';

/**
 * The path, continued outside the study view: on an exercise's live scene or failure cards (the
 * address an exercise's "What next" opened), it says where the learner is and leads on — from the
 * live scene to the cards, from the last station to the next exercise — so the chapter can be
 * walked from exercise 1 to 7 by "Next" alone. Nothing shows on any other address.
 */
export function StationBar() {
  const { t } = useTranslation('exercise');
  const locale = useLocale();
  const exercises = useExercises();
  const selectedId = useStoreSelector(exercises, (state) => state.selectedId);
  // Read while rendering on arrival: the stepper's own effects may already put a step in the
  // address (history.replaceState, which fires no hashchange: the bar stays while the learner steps).
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    const onHashChange = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);

  const exercise = selectedId === null ? undefined : exercises.find(selectedId);
  const kind = exercise === undefined ? null : stationAt(exercise.meta.order, hash);
  if (exercise === undefined || kind === null) return null;
  const { order } = exercise.meta;
  const after = afterStation(order, kind);
  const nextId = nextExerciseId(
    exercises.exercises.map((entry) => entry.meta.id),
    exercise.meta.id,
  );
  const next = nextId === undefined ? undefined : exercises.find(nextId);
  const goToNext = () => {
    if (next === undefined) return;
    exercises.select(next.meta.id);
    window.location.hash = STUDY_HASH;
  };

  return (
    <nav className="next-station station-bar" aria-label={t('station.label')} data-testid="station-bar" data-station={kind}>
      <p className="station-bar__where">
        {t('station.where', { number: order, title: localized(exercise.meta.title, locale), station: t(`station.${kind}`) })}
      </p>
      <a href={STUDY_HASH} className="station-bar__back">
        {t('station.back', { number: order })}
      </a>
      {'breakIt' in after ? (
        <a href={after.breakIt.hash} className="station-bar__next" data-testid="station-next">
          {t('station.nextBreak', { cards: t(`station.cards.${after.breakIt.key}`) })}
        </a>
      ) : next ? (
        <button type="button" className="station-bar__next" data-testid="station-next" onClick={goToNext}>
          {t('next.exercise', { number: next.meta.order, title: localized(next.meta.title, locale) })}
        </button>
      ) : (
        <p className="station-bar__done">{t('next.chapterDone')}</p>
      )}
    </nav>
  );
}
