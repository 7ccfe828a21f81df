// Opens a folded section (`<details>`) and brings it into view when a link asks for it: a "Break
// it" link lands on the scene with its failure cards open (`#protocol/scene/<scene>/break`). The
// signal is a count, so the same link followed twice opens the section twice.

import { useEffect, type RefObject } from 'react';
import { scrollToTopOfMain } from '../hooks/use-view-scroll.ts';

export function useOpenOnSignal(details: RefObject<HTMLDetailsElement | null>, signal: number, onOpen: () => void): void {
  useEffect(() => {
    const element = details.current;
    if (signal === 0 || element === null) return;
    element.open = true;
    onOpen();
    // After the content mounted and laid out. Inside the app only its scroll container moves, so
    // the header stays (scrollIntoView would scroll the page too); the presenter's page scrolls itself.
    const frame = requestAnimationFrame(() => {
      if (!scrollToTopOfMain(element)) element.scrollIntoView({ block: 'start' });
    });
    return () => cancelAnimationFrame(frame);
    // onOpen is recreated by each render of the caller; the signal alone decides when to open.
  }, [signal, details]);
}
