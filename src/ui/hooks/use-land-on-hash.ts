// Where a station link lands inside a view: exercise 4's "See it live" (#chapter-loop/check-server)
// on Check my server at the bottom of the Chapter loop, the other "See it live" links at the top of
// their view (not where the learner last left it: the scene is a new one). On arrival and whenever
// the address asks again, the target's top is brought to the top of the app's scroll container
// (scrollToTopOfMain).

import { useEffect, useRef, type RefObject } from 'react';
import { scrollToTopOfMain } from './use-view-scroll.ts';

/** Frames to wait for the view to be shown (App un-hides it on the same hashchange, in its own render). */
const MAX_FRAMES = 30;

/**
 * `target`'s top to the container's top when the address `matches`; with `atTop`, the container's
 * very top instead (a view's start: the page's notices above it stay in sight).
 */
export function useLandOnHash(target: RefObject<HTMLElement | null>, matches: (hash: string) => boolean, atTop = false): void {
  // The latest predicate, without re-subscribing on every render.
  const matchesRef = useRef(matches);
  matchesRef.current = matches;
  useEffect(() => {
    let frame = 0;
    const land = (tries = 0) => {
      const element = target.current;
      const main = element?.closest<HTMLElement>('.app-main');
      if (!element || !main || !matchesRef.current(window.location.hash)) return;
      if (element.getClientRects().length === 0) {
        if (tries < MAX_FRAMES) frame = requestAnimationFrame(() => land(tries + 1));
        return;
      }
      if (atTop) main.scrollTop = 0;
      else scrollToTopOfMain(element);
    };
    frame = requestAnimationFrame(() => land());
    const onHashChange = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => land());
    };
    window.addEventListener('hashchange', onHashChange);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('hashchange', onHashChange);
    };
  }, [target, atTop]);
}
