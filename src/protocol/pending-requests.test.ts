import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PendingRequests } from './pending-requests.ts';
import { RequestTimeoutError } from './client-errors.ts';

describe('PendingRequests', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('pairs by id in any order', async () => {
    const table = new PendingRequests();
    const first = table.add(0, 'initialize');
    const second = table.add(1, 'tools/list');
    table.take(1)?.resolve('list');
    table.take(0)?.resolve('init');
    expect(await first).toBe('init');
    expect(await second).toBe('list');
    expect(table.size).toBe(0);
  });

  it('treats 0 as an id and keeps 1 and "1" apart', async () => {
    const table = new PendingRequests();
    const numeric = table.add(1, 'a');
    const text = table.add('1', 'b');
    expect(table.take(0)).toBeUndefined();
    table.take('1')?.resolve('string one');
    expect(table.size).toBe(1);
    table.take(1)?.resolve('number one');
    expect(await numeric).toBe('number one');
    expect(await text).toBe('string one');
  });

  it('take() hands a waiter out once', () => {
    const table = new PendingRequests();
    void table.add(7, 'ping');
    expect(table.take(7)?.method).toBe('ping');
    expect(table.take(7)).toBeUndefined();
  });

  it('refuses an id that is already waiting', () => {
    const table = new PendingRequests();
    void table.add(3, 'ping');
    expect(() => table.add(3, 'ping')).toThrow(/already waiting/);
  });

  it('times out: rejects with RequestTimeoutError, forgets the request, reports it', async () => {
    const table = new PendingRequests();
    const timedOut: unknown[] = [];
    const promise = table.add(5, 'tools/call', 1000, (request) => timedOut.push(request.id));
    const settled = promise.catch((error: unknown) => error);
    vi.advanceTimersByTime(999);
    expect(table.size).toBe(1);
    vi.advanceTimersByTime(1);
    const error = await settled;
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ method: 'tools/call', id: 5, timeoutMs: 1000 });
    expect(timedOut).toEqual([5]);
    expect(table.take(5)).toBeUndefined();
  });

  it('does not time out a request that was answered', async () => {
    const table = new PendingRequests();
    const onTimeout = vi.fn();
    const promise = table.add(1, 'ping', 100, onTimeout);
    table.take(1)?.resolve({});
    vi.advanceTimersByTime(1000);
    expect(await promise).toEqual({});
    expect(onTimeout).not.toHaveBeenCalled();
  });

  it('waits forever for a non-finite or non-positive timeout', () => {
    const table = new PendingRequests();
    void table.add(1, 'a', Infinity);
    void table.add(2, 'b', 0);
    void table.add(3, 'c');
    vi.advanceTimersByTime(10 ** 10);
    expect(table.size).toBe(3);
  });

  it('rejectAll rejects every waiter with its own error and empties the table', async () => {
    const table = new PendingRequests();
    const a = table.add(0, 'initialize', 1000).catch((error: Error) => error.message);
    const b = table.add(1, 'ping', 1000).catch((error: Error) => error.message);
    table.rejectAll((request) => new Error(`gone: ${request.method}`));
    expect(await a).toBe('gone: initialize');
    expect(await b).toBe('gone: ping');
    expect(table.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('snapshot lists requests oldest first with their send time', () => {
    vi.setSystemTime(1000);
    const table = new PendingRequests();
    void table.add(0, 'initialize');
    vi.setSystemTime(2500);
    void table.add('x', 'tools/call');
    expect(table.snapshot()).toEqual([
      { id: 0, method: 'initialize', sentAt: 1000 },
      { id: 'x', method: 'tools/call', sentAt: 2500 },
    ]);
  });
});
