import { describe, expect, it, vi } from 'vitest';
import { createStore } from './create-store.ts';

describe('createStore', () => {
  it('replaces the snapshot and notifies subscribers', () => {
    const store = createStore({ count: 0 });
    const first = store.getSnapshot();
    const listener = vi.fn();
    store.subscribe(listener);
    store.setState((s) => ({ count: s.count + 1 }));
    expect(store.getSnapshot()).toEqual({ count: 1 });
    expect(store.getSnapshot()).not.toBe(first);
    expect(first).toEqual({ count: 0 });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('does not notify when the same snapshot is set again', () => {
    const store = createStore({ count: 0 });
    const listener = vi.fn();
    store.subscribe(listener);
    store.setState((s) => s);
    expect(listener).not.toHaveBeenCalled();
  });

  it('stops notifying after unsubscribe, even during a notification', () => {
    const store = createStore(0);
    const late = vi.fn();
    let unsubscribeLate = () => {};
    store.subscribe(() => unsubscribeLate());
    unsubscribeLate = store.subscribe(late);
    store.setState(1);
    expect(late).toHaveBeenCalledTimes(1);
    store.setState(2);
    expect(late).toHaveBeenCalledTimes(1);
  });
});
