import { describe, expect, it } from 'vitest';
import { TestTimeoutError } from './error-details.ts';
import { withTimeLimit } from './test-executor.ts';

describe('withTimeLimit', () => {
  it('fails a promise that never settles, after the limit', async () => {
    await expect(withTimeLimit(() => new Promise(() => {}), 50, 'The test')).rejects.toBeInstanceOf(TestTimeoutError);
  });

  it('does not fail work that kept the worker too busy to count: the limit is counted in ticks, not read from the clock', async () => {
    // Three times the limit of synchronous work (as on a machine ten times slower, or a stopped
    // process), then a promise that settles at once: a clock-read limit would already have fired.
    const value = await withTimeLimit(
      () => {
        const end = Date.now() + 150;
        while (Date.now() < end) {
          // busy
        }
        return new Promise<string>((resolve) => setTimeout(() => resolve('done'), 1));
      },
      50,
      'The test',
    );
    expect(value).toBe('done');
  });
});
