import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useStoreSelector } from '../hooks/use-store.ts';
import { useStudyLayout } from '../hooks/use-study-layout.ts';
import { LESSON_SHARE, shareAtPointer } from '../../app/exercise/study-layout.ts';

/**
 * Between the lesson and the editor: drag it, or focus it and use the arrow keys (Page Up/Down,
 * Home/End), to give one of them more room; a double click goes back to the default. The share
 * is remembered (StudyLayoutStore).
 */
export function StudySeparator({ controls }: { controls: string }) {
  const { t } = useTranslation();
  const layout = useStudyLayout();
  const share = useStoreSelector(layout, (state) => state.lessonShare);
  const dragging = useRef(false);

  const follow = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.parentElement?.getBoundingClientRect();
    if (box) layout.setLessonShare(shareAtPointer(event.clientX, box.left, box.width));
  };

  return (
    <div
      className="study-separator"
      role="separator"
      aria-orientation="vertical"
      aria-controls={controls}
      aria-label={t('studyLayout.separator')}
      aria-valuenow={share}
      aria-valuemin={LESSON_SHARE.min}
      aria-valuemax={LESSON_SHARE.max}
      aria-valuetext={t('studyLayout.separatorValue', { lesson: share, editor: 100 - share })}
      tabIndex={0}
      data-testid="study-separator"
      onKeyDown={(event: KeyboardEvent<HTMLDivElement>) => {
        if (layout.pressKey(event.key)) event.preventDefault();
      }}
      onPointerDown={(event) => {
        if (event.button !== 0) return;
        event.preventDefault(); // no text selection while dragging
        event.currentTarget.setPointerCapture(event.pointerId);
        event.currentTarget.focus();
        dragging.current = true;
      }}
      onPointerMove={(event) => {
        if (dragging.current) follow(event);
      }}
      onPointerUp={(event) => {
        if (!dragging.current) return;
        dragging.current = false;
        follow(event);
        event.currentTarget.releasePointerCapture(event.pointerId);
      }}
      onPointerCancel={() => {
        dragging.current = false;
      }}
      onDoubleClick={() => layout.setLessonShare(LESSON_SHARE.default)}
    />
  );
}
