// Components read stores through this one hook, so a render always sees one consistent snapshot.
import { useSyncExternalStore } from 'react';
import type { Store } from '../stores/create-store.ts';

export function useStore<S>(store: Pick<Store<S>, 'subscribe' | 'getSnapshot'>): S {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
