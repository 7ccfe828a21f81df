// The page's one offline-status store: written by register-service-worker.ts, read by the status
// badge and the preflight panel (with useStore).

import { createStore, type Store } from '../store/create-store.ts';
import { INITIAL_OFFLINE_STATE, nextOfflineState, type OfflineEvent, type OfflineState } from './offline-state.ts';

export interface OfflineStatusStore extends Pick<Store<OfflineState>, 'getSnapshot' | 'subscribe'> {
  dispatch(event: OfflineEvent): void;
}

export function createOfflineStatusStore(): OfflineStatusStore {
  const store = createStore<OfflineState>(INITIAL_OFFLINE_STATE);
  return {
    getSnapshot: store.getSnapshot,
    subscribe: store.subscribe,
    dispatch: (event) => store.setState((state) => nextOfflineState(state, event)),
  };
}

export const offlineStatusStore: OfflineStatusStore = createOfflineStatusStore();
