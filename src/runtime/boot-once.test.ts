import { afterEach, describe, expect, it, vi } from 'vitest';
import { TimeoutError, forgetPageSlot, once, oncePerPage, pageSlotKey, withTimeout } from './boot-once.ts';

const SLOT = 'boot-once-test';

afterEach(() => forgetPageSlot(SLOT));

describe('oncePerPage', () => {
  it('starts the first creator only, even when another module copy asks with its own', async () => {
    let calls = 0;
    const first = oncePerPage(SLOT, async () => ++calls);
    // A hot-reloaded copy of a module would call again with a different function.
    const second = oncePerPage(SLOT, async () => 100);
    expect(second).toBe(first);
    expect(await second).toBe(1);
    expect(calls).toBe(1);
  });

  it('stores the promise on globalThis under a Symbol.for key', () => {
    const promise = oncePerPage(SLOT, () => new Promise(() => {}));
    expect((globalThis as unknown as Record<symbol, unknown>)[Symbol.for(`mcp-playground:${SLOT}`)]).toBe(promise);
    expect(pageSlotKey(SLOT)).toBe(Symbol.for(`mcp-playground:${SLOT}`));
  });

  it('keeps a pending promise: a boot that never settles is never started twice', () => {
    let calls = 0;
    const pending = oncePerPage(SLOT, () => {
      calls++;
      return new Promise(() => {});
    });
    expect(oncePerPage(SLOT, async () => 0)).toBe(pending);
    expect(calls).toBe(1);
  });

  it('forgets a rejection so a later call may retry', async () => {
    await expect(oncePerPage(SLOT, async () => Promise.reject(new Error('offline')))).rejects.toThrow('offline');
    expect(await oncePerPage(SLOT, async () => 'second try')).toBe('second try');
  });

  it('turns a synchronous throw into a rejection', async () => {
    await expect(
      oncePerPage(SLOT, () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
  });
});

describe('once', () => {
  it('memoises per instance and retries after a rejection', async () => {
    let calls = 0;
    const get = once(async () => {
      calls++;
      if (calls === 1) throw new Error('first fails');
      return calls;
    });
    await expect(get()).rejects.toThrow('first fails');
    expect(await get()).toBe(2);
    expect(await get()).toBe(2);
    expect(calls).toBe(2);
  });
});

describe('withTimeout', () => {
  it('rejects with a TimeoutError when the promise takes too long, and not before', async () => {
    vi.useFakeTimers();
    try {
      let error: unknown;
      void withTimeout(new Promise(() => {}), 30).catch((caught: unknown) => (error = caught));
      await vi.advanceTimersByTimeAsync(29);
      expect(error).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as TimeoutError).ms).toBe(30);
    } finally {
      vi.useRealTimers();
    }
  });

  it('passes values and errors through untouched', async () => {
    expect(await withTimeout(Promise.resolve(7), 1000)).toBe(7);
    await expect(withTimeout(Promise.reject(new Error('no')), 1000)).rejects.toThrow('no');
  });
});
