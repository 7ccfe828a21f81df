import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_LIMITS_GLOBAL, pageLimit } from './page-limits.ts';

const scope = globalThis as Record<string, unknown>;

afterEach(() => {
  delete scope[PAGE_LIMITS_GLOBAL];
});

describe('pageLimit', () => {
  it('is the default when no test set a limit', () => {
    expect(pageLimit('webContainerBootMs', 6000)).toBe(6000);
  });

  it('is the limit a test set, by name', () => {
    scope[PAGE_LIMITS_GLOBAL] = { webContainerBootMs: 300 };
    expect(pageLimit('webContainerBootMs', 6000)).toBe(300);
    expect(pageLimit('sandboxFrameStartMs', 15_000)).toBe(15_000);
  });

  it('ignores a limit that is not a positive, finite number', () => {
    for (const value of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '300', null]) {
      scope[PAGE_LIMITS_GLOBAL] = { sandboxFrameStartMs: value };
      expect(pageLimit('sandboxFrameStartMs', 15_000), String(value)).toBe(15_000);
    }
    scope[PAGE_LIMITS_GLOBAL] = 'short';
    expect(pageLimit('sandboxFrameStartMs', 15_000)).toBe(15_000);
  });
});
