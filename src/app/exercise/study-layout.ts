// How the study view shares the screen, remembered across visits: whether the exercise list shows
// its titles and the progress panel (open) or sits in one compact row above the lesson (closed, the
// default, so the lesson starts near the top even at 1024×768), and how much of the width the
// lesson takes beside the editor (the separator between them, by mouse or keyboard). No UI here.

import { createStore, type Store } from '../store/create-store.ts';

export interface StudyLayout {
  exerciseListOpen: boolean;
  /** The lesson's share of the study view's width, in percent (the editor has the rest). */
  lessonShare: number;
}

export const STUDY_LAYOUT_KEY = 'mcp-playground.study-layout';
export const LESSON_SHARE = { min: 25, max: 70, default: 45, step: 2, page: 10 } as const;

interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function clampShare(share: number): number {
  if (!Number.isFinite(share)) return LESSON_SHARE.default;
  return Math.min(LESSON_SHARE.max, Math.max(LESSON_SHARE.min, Math.round(share)));
}

/**
 * The separator's keys (the WAI-ARIA window splitter pattern): arrows move it a step, Page Up/Down
 * a larger one, Home/End to the ends. Left and Down give the editor more room, Right and Up the
 * lesson. Returns the new share, or null for a key the separator does not use.
 */
export function shareAfterKey(share: number, key: string): number | null {
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return clampShare(share - LESSON_SHARE.step);
    case 'ArrowRight':
    case 'ArrowUp':
      return clampShare(share + LESSON_SHARE.step);
    case 'PageDown':
      return clampShare(share - LESSON_SHARE.page);
    case 'PageUp':
      return clampShare(share + LESSON_SHARE.page);
    case 'Home':
      return LESSON_SHARE.min;
    case 'End':
      return LESSON_SHARE.max;
    default:
      return null;
  }
}

/** Where a drag puts the separator: the pointer's x within the study view's box, as a share. */
export function shareAtPointer(pointerX: number, left: number, width: number): number {
  return width > 0 ? clampShare(((pointerX - left) / width) * 100) : LESSON_SHARE.default;
}

function readLayout(storage: StorageLike | null): StudyLayout {
  const defaults: StudyLayout = { exerciseListOpen: false, lessonShare: LESSON_SHARE.default };
  try {
    const data: unknown = JSON.parse(storage?.getItem(STUDY_LAYOUT_KEY) ?? 'null');
    if (typeof data !== 'object' || data === null) return defaults;
    const { exerciseListOpen, lessonShare } = data as Record<string, unknown>;
    return { exerciseListOpen: exerciseListOpen === true, lessonShare: typeof lessonShare === 'number' ? clampShare(lessonShare) : defaults.lessonShare };
  } catch {
    return defaults;
  }
}

export class StudyLayoutStore {
  readonly store: Store<StudyLayout>;

  constructor(private readonly storage: StorageLike | null) {
    this.store = createStore(readLayout(storage));
  }

  getSnapshot = (): StudyLayout => this.store.getSnapshot();
  subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);

  toggleExerciseList(): void {
    this.update({ exerciseListOpen: !this.getSnapshot().exerciseListOpen });
  }

  setLessonShare(share: number): void {
    this.update({ lessonShare: clampShare(share) });
  }

  /** A key pressed on the separator; true when it moved (or would have moved) the separator. */
  pressKey(key: string): boolean {
    const next = shareAfterKey(this.getSnapshot().lessonShare, key);
    if (next === null) return false;
    this.setLessonShare(next);
    return true;
  }

  private update(patch: Partial<StudyLayout>): void {
    const current = this.getSnapshot();
    const next = { ...current, ...patch };
    if (next.exerciseListOpen === current.exerciseListOpen && next.lessonShare === current.lessonShare) return;
    this.store.setState(next);
    try {
      this.storage?.setItem(STUDY_LAYOUT_KEY, JSON.stringify(next));
    } catch {
      // Not remembered; the layout still holds for this visit.
    }
  }
}
