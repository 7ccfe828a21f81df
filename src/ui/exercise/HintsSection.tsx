import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Exercise } from '../../exercise/types.ts';
import { shownHints } from '../../exercise/progress-data.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { useLocale } from '../hooks/use-locale.ts';
import { useStoreSelector } from '../hooks/use-store.ts';
import { parseMarkdown } from '../../app/exercise/markdown.ts';
import { failingSections, nextHint } from '../../app/exercise/next-hint.ts';
import { Markdown } from '../components/Markdown.tsx';
import { focusPendingHint, HINT_ID_PREFIX, showHint } from './hint-focus.ts';

/**
 * Hints, each for a lesson section; how many were opened, and which, is saved progress. "Show the
 * next hint" goes on from the rule of the last one (next-hint.ts), a rule the latest run fails first.
 */
export function HintsSection({ exercise, sectionTitles }: { exercise: Exercise; sectionTitles: Record<string, string> }) {
  const { t } = useTranslation('exercise');
  const locale = useLocale();
  const exercises = useExercises();
  const id = exercise.meta.id;
  const progress = useStoreSelector(exercises.progress, (state) => state.exercises[id]);
  const run = useStoreSelector(exercises, () => exercises.runOf(id));
  const hints = exercise.hints[locale] ?? exercise.hints.en ?? [];
  const shownKey = (progress === undefined ? [] : shownHints(progress)).join();
  const shown = useMemo(() => (shownKey === '' ? [] : shownKey.split(',').map(Number)).filter((index) => index < hints.length), [shownKey, hints.length]);
  const parsed = useMemo(() => hints.map((hint) => parseMarkdown(hint.text)), [hints]);
  const lessonOrder = Object.keys(sectionTitles);
  const tests = run.status === 'done' ? run.result.tests : [];
  const next = nextHint(hints, shown, lessonOrder, failingSections(exercise.rules, tests, lessonOrder));

  useEffect(() => focusPendingHint(shown), [shown]);

  return (
    <section className="hints" aria-labelledby="hints-heading">
      <h3 id="hints-heading">{t('hints.heading')}</h3>
      {hints.length === 0 ? (
        <p className="hint">{t('hints.none')}</p>
      ) : (
        <>
          <p className="hint">{t('hints.intro')}</p>
          {shown.length > 0 && (
            <ol className="hints__list">
              {shown.map((index, position) => {
                const titles = (hints[index]?.sections ?? []).map((section) => sectionTitles[section]).filter((title) => title !== undefined);
                return (
                  <li key={index} id={HINT_ID_PREFIX + index} className="hints__item" tabIndex={-1} data-testid="hint">
                    <span className="visually-hidden">{t('hints.hint', { n: position + 1 })} </span>
                    {titles.length > 0 && <p className="hints__about">{t('hints.about', { titles: titles.join(' · ') })}</p>}
                    <Markdown blocks={parsed[index] ?? []} />
                  </li>
                );
              })}
            </ol>
          )}
          <div className="hints__footer">
            <span className="hint" data-testid="hint-count">
              {t('hints.count', { shown: shown.length, total: hints.length })}
            </span>
            {next !== undefined ? (
              <button
                type="button"
                onClick={() => {
                  exercises.revealHint(id, hints.length, next);
                  showHint(next);
                }}
              >
                {shown.length === 0 ? t('hints.show') : t('hints.showNext')}
              </button>
            ) : (
              <span className="hint">{t('hints.allShown')}</span>
            )}
          </div>
        </>
      )}
    </section>
  );
}
