import { describe, expect, it } from 'vitest';
import { LESSON_SHARE, shareAfterKey, shareAtPointer, STUDY_LAYOUT_KEY, StudyLayoutStore } from './study-layout.ts';

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

describe('the study layout', () => {
  it('starts with the compact exercise list and the default split', () => {
    expect(new StudyLayoutStore(new MemoryStorage()).getSnapshot()).toEqual({ exerciseListOpen: false, lessonShare: LESSON_SHARE.default });
    expect(new StudyLayoutStore(null).getSnapshot().lessonShare).toBe(LESSON_SHARE.default);
  });

  it('remembers the list and the split across visits, and ignores garbage in storage', () => {
    const storage = new MemoryStorage();
    const layout = new StudyLayoutStore(storage);
    layout.toggleExerciseList();
    layout.setLessonShare(61.4);
    expect(new StudyLayoutStore(storage).getSnapshot()).toEqual({ exerciseListOpen: true, lessonShare: 61 });
    storage.setItem(STUDY_LAYOUT_KEY, '{ not json');
    expect(new StudyLayoutStore(storage).getSnapshot()).toEqual({ exerciseListOpen: false, lessonShare: LESSON_SHARE.default });
    storage.setItem(STUDY_LAYOUT_KEY, JSON.stringify({ exerciseListOpen: 'yes', lessonShare: 400 }));
    expect(new StudyLayoutStore(storage).getSnapshot()).toEqual({ exerciseListOpen: false, lessonShare: LESSON_SHARE.max });
  });

  it('moves the separator by key, within its bounds, and ignores other keys', () => {
    expect(shareAfterKey(45, 'ArrowLeft')).toBe(43);
    expect(shareAfterKey(45, 'ArrowDown')).toBe(43);
    expect(shareAfterKey(45, 'ArrowRight')).toBe(47);
    expect(shareAfterKey(45, 'PageUp')).toBe(55);
    expect(shareAfterKey(45, 'PageDown')).toBe(35);
    expect(shareAfterKey(45, 'Home')).toBe(LESSON_SHARE.min);
    expect(shareAfterKey(45, 'End')).toBe(LESSON_SHARE.max);
    expect(shareAfterKey(LESSON_SHARE.max, 'ArrowRight')).toBe(LESSON_SHARE.max);
    expect(shareAfterKey(LESSON_SHARE.min, 'PageDown')).toBe(LESSON_SHARE.min);
    expect(shareAfterKey(45, 'Enter')).toBeNull();
    const layout = new StudyLayoutStore(new MemoryStorage());
    expect(layout.pressKey('a')).toBe(false);
    expect(layout.pressKey('ArrowRight')).toBe(true);
    expect(layout.getSnapshot().lessonShare).toBe(LESSON_SHARE.default + LESSON_SHARE.step);
  });

  it('follows the pointer while dragging, clamped', () => {
    expect(shareAtPointer(600, 100, 1000)).toBe(50);
    expect(shareAtPointer(0, 100, 1000)).toBe(LESSON_SHARE.min);
    expect(shareAtPointer(5000, 100, 1000)).toBe(LESSON_SHARE.max);
    expect(shareAtPointer(500, 100, 0)).toBe(LESSON_SHARE.default);
  });
});
