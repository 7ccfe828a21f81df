// A folded section of the protocol view (and the presenter's stage): what only some scenes use
// (era cards, the failure-mode lab, the framing comparison) waits here until it is opened.

import { useRef, useState, type ReactNode } from 'react';
import { useOpenOnSignal } from './use-open-on-signal.ts';

/**
 * A collapsed section whose content mounts once it is first opened (and then stays, so a run in it
 * survives closing); `openSignal` opens it and brings it into view when a link asks.
 */
export function MoreSection({ id, summary, children, openSignal = 0 }: { id: string; summary: string; children: ReactNode; openSignal?: number }) {
  const [opened, setOpened] = useState(false);
  const details = useRef<HTMLDetailsElement>(null);
  useOpenOnSignal(details, openSignal, () => setOpened(true));
  return (
    <details ref={details} className="protocol-more" data-testid={`more-${id}`} onToggle={(event) => event.currentTarget.open && setOpened(true)}>
      <summary>{summary}</summary>
      {opened && children}
    </details>
  );
}
