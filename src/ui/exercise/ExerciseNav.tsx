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
  // One flag per exercise, as a string: typing saves code, which must not re-render this list.
  const completedFlags = useStoreSelector(exercises.progress, (state) => exercises.exercises.map((exercise) => (state.exercises[exercise.meta.id]?.completed ? '1' : '0')).join(''));
  const done = [...completedFlags].filter((flag) => flag === '1').length;
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
          const completed = completedFlags[index] === '1';
          const title = localized(exercise.meta.title, locale);
          return (
            <li key={id}>
              <button
                type="button"
                className={`exercise-nav__item${current ? ' is-current' : ''}${completed ? ' is-completed' : ''}`}
                aria-current={current ? 'true' : undefined}
                onClick={() => exercises.select(id)}
                data-testid={`exercise-${id}`}
                title={open ? undefined : title}
              >
                <span className="exercise-nav__number" aria-hidden="true">
                  {completed ? '✓' : exercise.meta.order}
                </span>
                <span className="exercise-nav__title">{title}</span>
                {completed && <span className="visually-hidden">{` (${t('exercises.completed')})`}</span>}
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
