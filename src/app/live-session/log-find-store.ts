// The state of Find for one message log (the live one, or an opened trace): the query, the pinned
// entries, and the last "go to" target. Components render it; the filtering is log-find.ts.

import { createStore, ExternalStore, type Store } from '../store/create-store.ts';
import type { WireDirection } from './message-log.ts';
import { EMPTY_QUERY, findPartner, type FindKind, type FrameRef, type LogQuery } from './log-find.ts';
import type { LogEntry } from './message-log.ts';

export interface LogFindState {
  query: LogQuery;
  /** Pinned entries by seq (stable across drops and filters). */
  pins: ReadonlySet<number>;
  /** The frame a "go to" jumped to; `at` changes on every jump, so the view scrolls again. */
  target: (FrameRef & { at: number }) | null;
  /** The last "go to" found nothing (its response never came, or was dropped). */
  missing: FrameRef | null;
}

export class LogFindStore extends ExternalStore<LogFindState> {
  protected readonly store: Store<LogFindState> = createStore<LogFindState>({ query: EMPTY_QUERY, pins: new Set(), target: null, missing: null });
  private jumps = 0;

  setText(text: string): void {
    this.patchQuery({ text });
  }

  toggleDirection(direction: WireDirection): void {
    this.patchQuery({ directions: toggled(this.getSnapshot().query.directions, direction) });
  }

  toggleKind(kind: FindKind): void {
    this.patchQuery({ kinds: toggled(this.getSnapshot().query.kinds, kind) });
  }

  setMethod(method: string | null): void {
    this.patchQuery({ method });
  }

  setTimeRange(from: number | null, to: number | null): void {
    this.patchQuery({ from, to });
  }

  setPinnedOnly(pinnedOnly: boolean): void {
    this.patchQuery({ pinnedOnly });
  }

  clearQuery(): void {
    this.store.setState((state) => ({ ...state, query: EMPTY_QUERY, target: null, missing: null }));
  }

  togglePin(seq: number): void {
    this.store.setState((state) => {
      const pins = new Set(state.pins);
      if (pins.has(seq)) pins.delete(seq);
      else pins.add(seq);
      return { ...state, pins };
    });
  }

  /** Jump to the request or response that pairs with a frame; remembers a miss so the view can say so. */
  goToPartner(entries: readonly LogEntry[], seq: number, frameIndex: number): FrameRef | null {
    const partner = findPartner(entries, seq, frameIndex);
    this.store.setState((state) =>
      partner === null ? { ...state, target: null, missing: { seq, frameIndex } } : { ...state, target: { ...partner, at: ++this.jumps }, missing: null },
    );
    return partner;
  }

  /** Jump to an entry (a pinned one, say). */
  goTo(seq: number, frameIndex = 0): void {
    this.store.setState((state) => ({ ...state, target: { seq, frameIndex, at: ++this.jumps }, missing: null }));
  }

  /** The log was cleared or replaced: pins and targets pointed at entries that are gone. */
  reset(): void {
    this.store.setState((state) => ({ ...state, pins: new Set(), target: null, missing: null }));
  }

  private patchQuery(patch: Partial<LogQuery>): void {
    // A new query ends the last jump: its target was shown in spite of the filters, and now need not be.
    this.store.setState((state) => ({ ...state, query: { ...state.query, ...patch }, target: null, missing: null }));
  }
}

function toggled<T>(list: readonly T[], item: T): T[] {
  return list.includes(item) ? list.filter((other) => other !== item) : [...list, item];
}
