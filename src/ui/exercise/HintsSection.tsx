import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Exercise } from '../../exercise/types.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { useLocale } from '../hooks/use-locale.ts';
import { useStoreSelector } from '../hooks/use-store.ts';
import { parseMarkdown } from '../../app/exercise/markdown.ts';
import { Markdown } from '../components/Markdown.tsx';

/** Hints, revealed one at a time; how many were opened is part of the saved progress. */
export function HintsSection({ exercise }: { exercise: Exercise }) {
  const { t } = useTranslation('exercise');
  const locale = useLocale();
  const exercises = useExercises();
  const id = exercise.meta.id;
  const revealed = useStoreSelector(exercises.progress, (state) => state.exercises[id]?.hintsRevealed ?? 0);
  const hints = exercise.hints[locale] ?? exercise.hints.en ?? [];
  const shown = Math.min(revealed, hints.length);
  const parsed = useMemo(() => hints.map((hint) => parseMarkdown(hint.text)), [hints]);
  const lastShown = useRef<HTMLLIElement>(null);
  const revealedNow = useRef(false);

  // A hint opened by the button gets focus, so a screen reader reads it and the keyboard is there.
  useEffect(() => {
    if (!revealedNow.current) return;
    revealedNow.current = false;
    lastShown.current?.focus();
    lastShown.current?.scrollIntoView({ block: 'nearest' });
  }, [shown]);

  return (
    <section className="hints" aria-labelledby="hints-heading">
      <h3 id="hints-heading">{t('hints.heading')}</h3>
      {hints.length === 0 ? (
        <p className="hint">{t('hints.none')}</p>
      ) : (
        <>
          <p className="hint">{t('hints.intro')}</p>
          {shown > 0 && (
            <ol className="hints__list">
              {parsed.slice(0, shown).map((blocks, index) => (
                <li key={index} className="hints__item" tabIndex={-1} ref={index === shown - 1 ? lastShown : undefined}>
                  <span className="visually-hidden">{t('hints.hint', { n: index + 1 })} </span>
                  <Markdown blocks={blocks} />
                </li>
              ))}
            </ol>
          )}
          <div className="hints__footer">
            <span className="hint" data-testid="hint-count">
              {t('hints.count', { shown, total: hints.length })}
            </span>
            {shown < hints.length ? (
              <button
                type="button"
                onClick={() => {
                  revealedNow.current = true;
                  exercises.revealHint(id, hints.length);
                }}
              >
                {shown === 0 ? t('hints.show') : t('hints.showNext')}
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
