import { describe, expect, it, vi } from 'vitest';
import { createTimerScope } from './timer-scope.ts';

describe('createTimerScope', () => {
  it('cancels every timer still scheduled when disposed', async () => {
    const scope = createTimerScope();
    const fired: string[] = [];
    scope.timers.setTimeout(() => fired.push('timeout'), 5);
    scope.timers.setInterval(() => fired.push('interval'), 5);
    expect(scope.pending).toBe(2);
    scope.dispose();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fired).toEqual([]);
    expect(scope.pending).toBe(0);
  });

  it('forgets a timeout once it fired, lets either clear function cancel either kind, and passes arguments', async () => {
    const scope = createTimerScope();
    const seen: unknown[] = [];
    scope.timers.setTimeout((a, b) => seen.push(a, b), 1, 'x', 2);
    const interval = scope.timers.setInterval(() => seen.push('tick'), 1);
    scope.timers.clearTimeout(interval);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual(['x', 2]);
    expect(scope.pending).toBe(0);
  });

  it('hands what a callback throws to onError instead of letting it escape', async () => {
    const onError = vi.fn();
    const scope = createTimerScope(onError);
    scope.timers.setTimeout(() => {
      throw new Error('late');
    }, 1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(onError).toHaveBeenCalledWith(new Error('late'));
  });
});
