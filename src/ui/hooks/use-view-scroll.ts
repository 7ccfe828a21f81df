// The views share one scroll container (.app-main), so without this a view opened from the header
// showed the previous view's scroll position: the Chapter loop opened 3,000 px down, on the live
// log, and seemed not to have changed. Each view keeps its own position instead: the first visit
// opens at the top, a return opens where the learner left that view.

import { useLayoutEffect, useRef, type RefObject } from 'react';
import type { AppView } from '../../app/router.ts';

export function useViewScroll(view: AppView, container: RefObject<HTMLElement | null>): void {
  const positions = useRef(new Map<AppView, number>());
  const shown = useRef<AppView | null>(null);
  // Recorded as the learner scrolls, not read at the switch: by then the old view is hidden and
  // the browser has already clamped scrollTop to the new, shorter content.
  useLayoutEffect(() => {
    const element = container.current;
    if (!element) return;
    const record = () => {
      if (shown.current !== null) positions.current.set(shown.current, element.scrollTop);
    };
    element.addEventListener('scroll', record, { passive: true });
    return () => element.removeEventListener('scroll', record);
  }, [container]);
  useLayoutEffect(() => {
    const element = container.current;
    if (!element || shown.current === view) return;
    shown.current = view;
    element.scrollTop = positions.current.get(view) ?? 0;
  }, [view, container]);
}

/**
 * Brings the live panel (below every view) into sight inside the scroll container only: the
 * header stays, the view stays, and focus moves to the panel's heading for keyboard users.
 */
export function showLivePanel(): void {
  const panel = document.getElementById('live-panel');
  if (!panel || !scrollToTopOfMain(panel)) return;
  const heading = document.getElementById('live-panel-heading');
  heading?.setAttribute('tabindex', '-1');
  heading?.focus({ preventScroll: true });
}

/**
 * Brings `element`'s top to the top of the app's scroll container (.app-main), less its
 * scroll-margin-top (what keeps a landing below the sticky path bar, src/ui/path/station-bar.css).
 * Only that container moves, so the header stays (scrollIntoView would scroll the page too).
 * False when the element is not inside it (e.g. the presenter's page), which then scrolls itself.
 */
export function scrollToTopOfMain(element: HTMLElement): boolean {
  const main = element.closest<HTMLElement>('.app-main');
  if (!main) return false;
  const margin = parseFloat(getComputedStyle(element).scrollMarginTop) || 0;
  main.scrollTop += element.getBoundingClientRect().top - main.getBoundingClientRect().top - margin;
  return true;
}
