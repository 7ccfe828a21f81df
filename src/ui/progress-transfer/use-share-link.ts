// Opens a `#share=…` address: at first render, and when a link is pasted into an open tab (only
// the hash changes then, no reload). A link that cannot open is taken out of the address, so a
// reload shows the learner's own view without the message again.

import { useEffect } from 'react';
import { isShareHash } from '../../exercise/share-link.ts';
import type { ExerciseStore } from '../../app/exercise/exercise-store.ts';
import { clearAddressHash } from '../../app/progress-transfer/browser-file.ts';

export function useShareLinkFromAddress(exercises: ExerciseStore): void {
  useEffect(() => {
    let active = true;
    const open = () => {
      const hash = window.location.hash;
      if (!isShareHash(hash)) return;
      void exercises.openShareHash(hash).then(() => {
        if (active && exercises.getSnapshot().shareProblem && window.location.hash === hash) clearAddressHash();
      });
    };
    open();
    window.addEventListener('hashchange', open);
    return () => {
      active = false;
      window.removeEventListener('hashchange', open);
    };
  }, [exercises]);
}
