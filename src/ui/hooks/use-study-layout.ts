// The page's one StudyLayoutStore (the exercise list open or compact, the lesson/editor split),
// made on first use and kept in the browser's storage.

import { StudyLayoutStore } from '../../app/exercise/study-layout.ts';

let layout: StudyLayoutStore | null = null;

function browserStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage blocked: the layout holds for this visit only
  }
}

export function useStudyLayout(): StudyLayoutStore {
  layout ??= new StudyLayoutStore(browserStorage());
  return layout;
}
