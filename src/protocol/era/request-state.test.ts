import { describe, expect, it } from 'vitest';
import { createRequestStateSealer } from './request-state.ts';

describe('requestState sealing', () => {
  it('opens what it sealed for the same binding, and nothing else', async () => {
    const sealer = createRequestStateSealer();
    const state = await sealer.seal('tools/call\u0000a', 'round-1');
    expect(state).not.toContain('round-1');
    expect(await sealer.open('tools/call\u0000a', state)).toBe('round-1');
    expect(await sealer.open('tools/call\u0000b', state)).toBeNull();
    expect(await sealer.open('tools/call\u0000a', `${state}x`)).toBeNull();
    expect(await sealer.open('tools/call\u0000a', 'garbage')).toBeNull();
  });

  it('refuses a state from another key, and an expired one', async () => {
    let now = 1_000;
    const sealer = createRequestStateSealer({ ttlMs: 100, now: () => now });
    const state = await sealer.seal('x', 'v');
    expect(await createRequestStateSealer().open('x', state)).toBeNull();
    now = 1_101;
    expect(await sealer.open('x', state)).toBeNull();
  });
});
