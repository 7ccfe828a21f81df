import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { localized } from '../../exercise/catalogue.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { useExerciseText } from '../hooks/use-exercise-text.ts';
import { useLocale } from '../hooks/use-locale.ts';
import { useStoreSelector } from '../hooks/use-store.ts';
import { headingTitles, parseMarkdown } from '../../app/exercise/markdown.ts';
import { ExerciseNav } from './ExerciseNav.tsx';
import { HintsSection } from './HintsSection.tsx';
import { Markdown } from '../components/Markdown.tsx';

/** Element ids of lesson headings: `{#ids}` in the Markdown → `lesson-ids` on the page. */
export const LESSON_ID_PREFIX = 'lesson-';

/**
 * Scrolls the lesson to a step's heading and moves focus there. Only the lesson's own scroller
 * moves: scrollIntoView would also scroll the page, taking the header and the pane's top with it.
 */
export function showLessonStep(stepId: string): void {
  const heading = document.getElementById(LESSON_ID_PREFIX + stepId);
  if (!heading) return;
  const scroller = heading.closest<HTMLElement>('.lesson-pane__scroll');
  if (scroller) scroller.scrollTo({ top: scroller.scrollTop + heading.getBoundingClientRect().top - scroller.getBoundingClientRect().top, behavior: 'smooth' });
  else heading.scrollIntoView({ block: 'start', behavior: 'smooth' });
  heading.focus({ preventScroll: true });
}

export function LessonPane() {
  const { t } = useTranslation('exercise');
  const locale = useLocale();
  const exercises = useExercises();
  const selectedId = useStoreSelector(exercises, (state) => state.selectedId);
  // The lesson and hints load per exercise and language when opened.
  const textStatus = useExerciseText(exercises, selectedId, locale);
  const exercise = selectedId === null ? undefined : exercises.find(selectedId);
  const text = exercise ? (exercise.content[locale] ?? exercise.content.en) : '';
  const translated = exercise?.content[locale] !== undefined;
  const blocks = useMemo(() => parseMarkdown(text ?? ''), [text]);
  const sectionTitles = useMemo(() => headingTitles(blocks), [blocks]);
  const scroller = useRef<HTMLDivElement>(null);

  // A newly opened exercise starts at the top of its lesson.
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [selectedId]);

  return (
    <section className="pane lesson-pane" id="lesson-pane" aria-label={exercise ? t('lesson.label', { title: localized(exercise.meta.title, locale) }) : undefined}>
      <ExerciseNav />
      <div className="lesson-pane__scroll" ref={scroller} data-testid="lesson">
        {exercise && textStatus !== 'ready' && (
          <p className={textStatus === 'failed' ? 'notice is-warning' : 'hint'} role="status" data-testid="lesson-loading">
            {textStatus === 'failed' ? t('lesson.loadFailed') : t('lesson.loading')}
          </p>
        )}
        {exercise && textStatus === 'ready' && (
          <>
            {!translated && <p className="notice">{t('lesson.missingLanguage')}</p>}
            <article className="lesson" lang={translated ? locale : 'en'}>
              <Markdown blocks={blocks} headingOffset={1} idPrefix={LESSON_ID_PREFIX} />
            </article>
            <HintsSection exercise={exercise} sectionTitles={sectionTitles} />
          </>
        )}
      </div>
    </section>
  );
}
