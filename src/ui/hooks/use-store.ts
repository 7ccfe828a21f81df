// Components read stores through these hooks, so a render always sees one consistent snapshot.
import { useSyncExternalStore } from 'react';
import type { Store } from '../../app/store/create-store.ts';

type Readable<S> = Pick<Store<S>, 'subscribe' | 'getSnapshot'>;

export function useStore<S>(store: Readable<S>): S {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}

/**
 * One slice of a store: the component renders again only when that slice changes (compared with
 * Object.is), not on every change of the store. The selector must return a part of the snapshot
 * (or a primitive), never a new object.
 */
export function useStoreSelector<S, T>(store: Readable<S>, selector: (state: S) => T): T {
  const select = () => selector(store.getSnapshot());
  return useSyncExternalStore(store.subscribe, select, select);
}
