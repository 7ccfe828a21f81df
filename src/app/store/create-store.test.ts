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

  it('tells batched changes once, at the scheduled moment, with the snapshot changed at once', () => {
    let flush: (() => void) | null = null;
    const cancel = vi.fn(() => (flush = null));
    const store = createStore(0, (callback) => {
      flush = callback;
      return cancel;
    });
    const listener = vi.fn();
    store.subscribe(listener);
    store.setState(1, { batched: true });
    store.setState(2, { batched: true });
    expect(store.getSnapshot()).toBe(2);
    expect(listener).not.toHaveBeenCalled();
    flush!();
    expect(listener).toHaveBeenCalledTimes(1);
    // A change told at once takes the batched ones with it: one notification, the frame cancelled.
    store.setState(3, { batched: true });
    store.setState(4);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(flush).toBeNull();
  });

  it('without frames (Node), tells batched changes on a timer', () => {
    vi.useFakeTimers();
    try {
      const store = createStore(0);
      const listener = vi.fn();
      store.subscribe(listener);
      for (let i = 1; i <= 100; i++) store.setState(i, { batched: true });
      expect(listener).not.toHaveBeenCalled();
      vi.runAllTimers();
      expect(listener).toHaveBeenCalledTimes(1);
      expect(store.getSnapshot()).toBe(100);
    } finally {
      vi.useRealTimers();
    }
  });
});
