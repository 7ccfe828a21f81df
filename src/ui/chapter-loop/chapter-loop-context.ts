// Hands the view's ChapterLoopStore (made in ChapterLoopView.tsx) to the components under it.
import { createContext, useContext } from 'react';
import type { ChapterLoopStore } from '../../app/chapter-loop/chapter-loop-store.ts';

export const ChapterLoopStoreContext = createContext<ChapterLoopStore | null>(null);

export function useChapterLoopStore(): ChapterLoopStore {
  const store = useContext(ChapterLoopStoreContext);
  if (store === null) throw new Error('useChapterLoopStore needs an <ChapterLoopStoreContext.Provider> above it');
  return store;
}
