// The smallest store React can read with useSyncExternalStore: one immutable snapshot, replaced
// (never mutated) on every change, so `getSnapshot` returning the same object means "nothing changed".

import { nextFrame, type Cancel } from './next-frame.ts';

export type Listener = () => void;

export interface SetStateOptions {
  /**
   * Tell the listeners at the next frame, not now: for changes that come in bursts (a live log's
   * entries, hundreds a second under split-writes), so the page renders once per frame instead of
   * once per change. The snapshot itself changes at once; an unbatched change before that frame
   * tells the listeners about both.
   */
  batched?: boolean;
}

export interface Store<S> {
  getSnapshot(): S;
  /** Replace the snapshot: pass the next state, or a function of the current one. */
  setState(next: S | ((current: S) => S), options?: SetStateOptions): void;
  subscribe(listener: Listener): () => void;
}

/** `schedule` decides when batched changes are told (tests pass their own). */
export function createStore<S>(initial: S, schedule: (callback: () => void) => Cancel = nextFrame): Store<S> {
  let state = initial;
  const listeners = new Set<Listener>();
  let pending: Cancel | null = null;
  function notify(): void {
    if (pending !== null) {
      pending();
      pending = null;
    }
    // Copy first: a listener may unsubscribe (or subscribe) while we iterate.
    for (const listener of [...listeners]) listener();
  }
  return {
    getSnapshot: () => state,
    setState(next, options) {
      const value = typeof next === 'function' ? (next as (current: S) => S)(state) : next;
      // Same object means no change: skip the notification so React does not re-render for nothing.
      if (Object.is(value, state)) return;
      state = value;
      if (options?.batched !== true) notify();
      else if (pending === null) {
        pending = schedule(() => {
          pending = null;
          notify();
        });
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/**
 * The base of the page's stores: each keeps its state in one `store` (made with createStore) and
 * inherits the two methods useSyncExternalStore needs. Both are bound, so a component can pass
 * `store.subscribe` and `store.getSnapshot` along as they are.
 */
export abstract class ExternalStore<S> {
  protected abstract readonly store: Store<S>;

  readonly getSnapshot = (): S => this.store.getSnapshot();

  readonly subscribe = (listener: Listener): (() => void) => this.store.subscribe(listener);
}
