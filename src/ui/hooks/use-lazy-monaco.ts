// Monaco arrives on first mount, as its own chunk: the page's first load never pays for it. The
// learner's editor and the Solve view's diff editor both load it this way; each says what to build.

import { useEffect, type RefObject } from 'react';
import type { ExerciseStore } from '../../app/exercise/exercise-store.ts';

export type EditorModule = typeof import('../editor/learner-models.ts');
export type Monaco = ReturnType<EditorModule['bindMonaco']>;

/**
 * Load Monaco, then `create` an editor in `container` once it is mounted; what `create` returns is
 * called on unmount. A failed load (or a throw in `create`) reaches `onError` as words.
 */
export function useLazyMonaco(
  container: RefObject<HTMLElement | null>,
  store: ExerciseStore,
  create: (module: EditorModule, monaco: Monaco, element: HTMLElement) => () => void,
  onError: (reason: string) => void,
): void {
  useEffect(() => {
    let disposed = false;
    let dispose = () => {};
    import('../editor/learner-models.ts')
      .then((module) => {
        if (disposed || !container.current) return;
        dispose = create(module, module.bindMonaco(store), container.current);
      })
      .catch((error: unknown) => {
        if (!disposed) onError(error instanceof Error ? error.message : String(error));
      });
    return () => {
      disposed = true;
      dispose();
    };
    // Created once per store; `create` and `onError` are read at that moment, as the callers intend.
  }, [store]);
}
