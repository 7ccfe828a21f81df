import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { localized } from '../../exercise/catalogue.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { useLocale } from '../hooks/use-locale.ts';
import { useStoreSelector } from '../hooks/use-store.ts';
import { useStudyLayout } from '../hooks/use-study-layout.ts';

const MORE_ID = 'exercise-nav-more';

// Export and import sit behind the disclosure: loaded the first time it opens, then kept mounted
// (its status and undo survive closing), so they cost the first paint nothing.
const ProgressTransferPanel = lazy(() => import('../progress-transfer/ProgressTransferPanel.tsx').then((module) => ({ default: module.ProgressTransferPanel })));

/**
 * The five exercises: which are done, which is open; choosing one opens it. Compact by default (one
 * row of numbers, the open exercise with its title) so the lesson gets the room; the disclosure
 * button shows every title and, below, export/import of the progress. Remembered.
 */
export function ExerciseNav() {
  const { t } = useTranslation('exercise');
  const locale = useLocale();
  const exercises = useExercises();
  const selectedId = useStoreSelector(exercises, (state) => state.selectedId);
  // Three flags per exercise, as one string (typing saves code, which must not re-render this
  // list): passed, hints used, reference used.
  const flags = useStoreSelector(exercises.progress, (state) => exercises.exercises.map((exercise) => marksOf(state.exercises[exercise.meta.id])).join(''));
  const done = exercises.exercises.filter((_, index) => flags[index * 3] === '1').length;
  const layout = useStudyLayout();
  const open = useStoreSelector(layout, (state) => state.exerciseListOpen);
  const [transferShown, setTransferShown] = useState(open);
  if (open && !transferShown) setTransferShown(true);

  return (
    <nav className={`exercise-nav ${open ? 'is-open' : 'is-compact'}`} aria-labelledby="exercise-nav-heading">
      <div className="exercise-nav__header">
        <h2 id="exercise-nav-heading">{t('exercises.heading')}</h2>
        <span className="exercise-nav__progress" data-testid="exercise-progress">
          {t('exercises.progress', { done, total: exercises.exercises.length })}
        </span>
        <button type="button" className="exercise-nav__toggle" aria-expanded={open} aria-controls={MORE_ID} onClick={() => layout.toggleExerciseList()} data-testid="exercise-list-toggle">
          <span>{t('studyLayout.listToggle')}</span>
          <span className="exercise-nav__chevron" aria-hidden="true" />
        </button>
      </div>
      {exercises.exercises.length === 0 && <p className="notice is-warning">{t('exercises.none')}</p>}
      <ol className="exercise-nav__list">
        {exercises.exercises.map((exercise, index) => {
          const id = exercise.meta.id;
          const current = id === selectedId;
          const completed = flags[index * 3] === '1';
          const hinted = flags[index * 3 + 1] === '1';
          const fromReference = flags[index * 3 + 2] === '1';
          const title = localized(exercise.meta.title, locale);
          // What the map says about the exercise, for everyone: written, with hints, taken from the reference.
          const marks = [completed && t(fromReference ? 'exercises.marks.passedWithReference' : 'exercises.marks.passed'), !completed && fromReference && t('exercises.marks.reference'), hinted && t('exercises.marks.hints')].filter(Boolean).join(', ');
          return (
            <li key={id}>
              <button
                type="button"
                className={`exercise-nav__item${current ? ' is-current' : ''}${completed ? ' is-completed' : ''}${fromReference ? ' is-from-reference' : ''}${hinted ? ' is-hinted' : ''}`}
                aria-current={current ? 'true' : undefined}
                onClick={() => exercises.select(id)}
                data-testid={`exercise-${id}`}
                title={open ? undefined : marks === '' ? title : `${title} (${marks})`}
                data-marks={[completed ? 'passed' : '', hinted ? 'hints' : '', fromReference ? 'reference' : ''].filter(Boolean).join(' ') || undefined}
              >
                <span className="exercise-nav__number" aria-hidden="true">
                  {completed ? '✓' : exercise.meta.order}
                </span>
                <span className="exercise-nav__title">{title}</span>
                {open && marks !== '' && (
                  <span className="exercise-nav__marks" aria-hidden="true">
                    {marks}
                  </span>
                )}
                {marks !== '' && <span className="visually-hidden">{` (${marks})`}</span>}
              </button>
            </li>
          );
        })}
      </ol>
      <div id={MORE_ID} className="exercise-nav__more" hidden={!open}>
        {transferShown && (
          <Suspense fallback={null}>
            <ProgressTransferPanel />
          </Suspense>
        )}
      </div>
    </nav>
  );
}

/** "passed", "hints used", "reference used" as three '0'/'1' characters. */
function marksOf(progress: { completed: boolean; hintsRevealed: number; referenceUsed?: boolean } | undefined): string {
  if (!progress) return '000';
  return `${progress.completed ? 1 : 0}${progress.hintsRevealed > 0 ? 1 : 0}${progress.referenceUsed === true ? 1 : 0}`;
}
