// The rows of a message log, the live panel's and an opened trace's alike: only the rows in view
// are in the page (@tanstack/react-virtual). A trace may hold a hundred thousand entries; a live log
// up to a thousand, and those, all in the page, were most of a busy page's elements (one failure
// card: 8,900 of them), so every layout, style change, modal dialog and accessibility walk paid for
// them. The log's own find bar searches every entry, shown or not. The arrow keys move between rows,
// Home/End jump to the ends, and a "go to" target scrolls into view and takes the focus.

import { useCallback, useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { elementScroll, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import type { LogEntry } from '../../app/live-session/message-log.ts';
import { LogEntryRow } from './LogEntryRow.tsx';
import { stillAtBottom } from './log-follow.ts';

export interface LogListProps {
  entries: readonly LogEntry[];
  pins: ReadonlySet<number>;
  target: { seq: number; frameIndex: number; at: number } | null;
  onTogglePin(seq: number): void;
  onGoToPartner(seq: number, frameIndex: number): void;
  labelledBy: string;
  id?: string;
  /** Keep the newest row in view while the reader is at the bottom (the live log). */
  follow: boolean;
}

// A collapsed row is 29 px high: an exact estimate spares the virtualiser a re-layout of 100,000 rows per measured row.
const ROW_ESTIMATE_PX = 29;
// .message-log__list's max-height (app.css).
const LIST_MAX_HEIGHT_PX = 480;

export function LogList({ entries, pins, target, onTogglePin, onGoToPartner, labelledBy, id, follow }: LogListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: 12,
    // Sizes come from ResizeObservers only, never from reading the layout while React commits,
    // and the list is not scrolled to where it already is: either forced a layout of the whole
    // page in the same task as the first rows' render (60–90 of the 110–150 ms of the longest task
    // while a 100 MB trace opened). The layout now happens when the browser renders the frame, and
    // the observers report what it found.
    measureElement: sizeFromObserver,
    observeElementRect: observeRectWithoutLayout,
    scrollToFn: scrollUnlessThere,
    // Until the list's own box is observed: its largest height, so the first render makes only the
    // rows that can show (the window's height made half again as many).
    initialRect: { width: 0, height: LIST_MAX_HEIGHT_PX },
    getItemKey: (index) => entries[index]!.seq,
  });
  const scrollTo = useCallback((index: number) => virtualizer.scrollToIndex(index, { align: 'auto' }), [virtualizer]);
  const onKeyDown = useRowKeys(scrollRef, entries.length, scrollTo);

  // Following the live log: scroll once per frame, not once per entry (split-writes brings
  // hundreds of chunks a second), and only while the reader stays at the bottom (log-follow.ts).
  // Decided here rather than on scroll events: those come a frame late, after more rows have
  // already moved the bottom, and read as the reader leaving it.
  const lastBottom = useRef<number | null>(null);
  const scrollQueued = useRef(false);
  useEffect(() => {
    if (!follow || scrollQueued.current) return;
    scrollQueued.current = true;
    requestAnimationFrame(() => {
      scrollQueued.current = false;
      const list = scrollRef.current;
      if (!list) return;
      if (!stillAtBottom(list, lastBottom.current)) return;
      const bottom = list.scrollHeight;
      list.scrollTop = bottom;
      lastBottom.current = bottom;
    });
  }, [entries, follow]);

  // A "go to" target may be far outside the rendered rows: bring it in, and the row focuses itself.
  const targetSeq = target?.seq ?? null;
  const targetAt = target?.at ?? null;
  useEffect(() => {
    if (targetSeq === null) return;
    const index = entries.findIndex((entry) => entry.seq === targetSeq);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'center' });
  }, [targetSeq, targetAt, entries, virtualizer]);

  const items = virtualizer.getVirtualItems();
  return (
    <div ref={scrollRef} className="message-log__list message-log__list--virtual" onKeyDown={onKeyDown}>
      <ol id={id} aria-labelledby={labelledBy} className="message-log__virtual" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const entry = entries[item.index]!;
          return (
            <LogEntryRow
              key={item.key}
              entry={entry}
              index={item.index}
              setSize={entries.length}
              measureRef={virtualizer.measureElement}
              style={{ transform: `translateY(${item.start}px)` }}
              pinned={pins.has(entry.seq)}
              target={target?.seq === entry.seq ? target : null}
              onTogglePin={onTogglePin}
              onGoToPartner={onGoToPartner}
            />
          );
        })}
      </ol>
    </div>
  );
}

/** A row's height as its ResizeObserver saw it; before the first observation, the last one or the estimate. */
function sizeFromObserver(element: HTMLLIElement, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, HTMLLIElement>): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  return instance.itemSizeCache.get(instance.options.getItemKey(instance.indexFromElement(element))) ?? ROW_ESTIMATE_PX;
}

/** The list's box, from a ResizeObserver alone (the library's default reads it at once, forcing a layout). */
function observeRectWithoutLayout(instance: Virtualizer<HTMLDivElement, HTMLLIElement>, report: (rect: { width: number; height: number }) => void): () => void {
  const element = instance.scrollElement;
  if (!element || typeof ResizeObserver === 'undefined') return () => {};
  const observer = new ResizeObserver(([entry]) => {
    const box = entry?.borderBoxSize?.[0];
    if (box) report({ width: Math.round(box.inlineSize), height: Math.round(box.blockSize) });
  });
  observer.observe(element);
  return () => observer.disconnect();
}

/** The library scrolls to the top when it mounts; a list that is there already is left alone (the write forces a layout). */
function scrollUnlessThere(offset: number, options: { adjustments?: number; behavior?: ScrollBehavior }, instance: Virtualizer<HTMLDivElement, HTMLLIElement>): void {
  if (offset === 0 && (instance.scrollOffset ?? 0) === 0) return;
  elementScroll(offset, options, instance);
}

/** ArrowUp/ArrowDown/Home/End between rows; `bringIntoView` renders a row a virtual list left out. */
function useRowKeys(container: RefObject<HTMLElement | null>, count: number, bringIntoView: ((index: number) => void) | null) {
  return useCallback(
    (event: KeyboardEvent) => {
      if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) return;
      const target = event.target as HTMLElement;
      // Only from a row itself: arrow keys inside an open row's details keep their usual meaning.
      if (!target.classList.contains('log-entry__row') && !target.classList.contains('log-entry__pin')) return;
      const current = Number(target.closest('[data-index]')?.getAttribute('data-index') ?? -1);
      const next = event.key === 'Home' ? 0 : event.key === 'End' ? count - 1 : current + (event.key === 'ArrowDown' ? 1 : -1);
      if (next < 0 || next >= count || next === current) return;
      event.preventDefault();
      const focus = () => {
        const row = container.current?.querySelector<HTMLElement>(`[data-index="${next}"] .log-entry__row`);
        row?.focus();
        row?.scrollIntoView?.({ block: 'nearest' });
        return row !== null && row !== undefined;
      };
      if (focus()) return;
      bringIntoView?.(next);
      // The row renders on the virtualiser's next pass.
      requestAnimationFrame(() => {
        if (!focus()) requestAnimationFrame(focus);
      });
    },
    [container, count, bringIntoView],
  );
}
