import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { localized } from '../../exercise/catalogue.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { useLocale } from '../hooks/use-locale.ts';
import { useStoreSelector } from '../hooks/use-store.ts';
import { parseMarkdown } from '../../app/exercise/markdown.ts';
import { ExerciseNav } from './ExerciseNav.tsx';
import { HintsSection } from './HintsSection.tsx';
import { Markdown } from '../components/Markdown.tsx';

/** Element ids of lesson headings: `{#ids}` in the Markdown → `lesson-ids` on the page. */
export const LESSON_ID_PREFIX = 'lesson-';

/** Scrolls the lesson to a step's heading and moves focus there. */
export function showLessonStep(stepId: string): void {
  const heading = document.getElementById(LESSON_ID_PREFIX + stepId);
  if (!heading) return;
  heading.scrollIntoView({ block: 'start', behavior: 'smooth' });
  heading.focus({ preventScroll: true });
}

export function LessonPane() {
  const { t } = useTranslation();
  const locale = useLocale();
  const exercises = useExercises();
  const selectedId = useStoreSelector(exercises, (state) => state.selectedId);
  const exercise = selectedId === null ? undefined : exercises.find(selectedId);
  const text = exercise ? (exercise.content[locale] ?? exercise.content.en) : '';
  const translated = exercise?.content[locale] !== undefined;
  const blocks = useMemo(() => parseMarkdown(text ?? ''), [text]);
  const scroller = useRef<HTMLDivElement>(null);

  // A newly opened exercise starts at the top of its lesson.
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [selectedId]);

  return (
    <section className="pane lesson-pane" id="lesson-pane" aria-label={exercise ? t('lesson.label', { title: localized(exercise.meta.title, locale) }) : undefined}>
      <ExerciseNav />
      <div className="lesson-pane__scroll" ref={scroller} data-testid="lesson">
        {exercise && (
          <>
            {!translated && <p className="notice">{t('lesson.missingLanguage')}</p>}
            <article className="lesson" lang={translated ? locale : 'en'}>
              <Markdown blocks={blocks} headingOffset={1} idPrefix={LESSON_ID_PREFIX} />
            </article>
            <HintsSection exercise={exercise} />
          </>
        )}
      </div>
    </section>
  );
}
