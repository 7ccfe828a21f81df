// The smallest store React can read with useSyncExternalStore: one immutable snapshot, replaced
// (never mutated) on every change, so `getSnapshot` returning the same object means "nothing changed".

export type Listener = () => void;

export interface Store<S> {
  getSnapshot(): S;
  /** Replace the snapshot: pass the next state, or a function of the current one. */
  setState(next: S | ((current: S) => S)): void;
  subscribe(listener: Listener): () => void;
}

export function createStore<S>(initial: S): Store<S> {
  let state = initial;
  const listeners = new Set<Listener>();
  return {
    getSnapshot: () => state,
    setState(next) {
      const value = typeof next === 'function' ? (next as (current: S) => S)(state) : next;
      // Same object means no change: skip the notification so React does not re-render for nothing.
      if (Object.is(value, state)) return;
      state = value;
      // Copy first: a listener may unsubscribe (or subscribe) while we iterate.
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
