import { describe, expect, it } from 'vitest';
import { argumentsDigest, createRequestStateSealer } from './request-state.ts';

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

describe('requestState is single-use and bound to the arguments', () => {
  it('opens a state once: the replay is refused, a fresh state of the same binding still opens', async () => {
    const sealer = createRequestStateSealer();
    const state = await sealer.seal('b', 'v');
    expect(await sealer.open('b', state)).toBe('v');
    expect(await sealer.open('b', state)).toBeNull();
    expect(await sealer.open('b', await sealer.seal('b', 'v'))).toBe('v');
  });

  it('lets only one of two concurrent opens of one state through', async () => {
    const sealer = createRequestStateSealer();
    const state = await sealer.seal('b', 'v');
    const results = await Promise.all([sealer.open('b', state), sealer.open('b', state), sealer.open('b', state)]);
    expect(results.filter((value) => value === 'v')).toHaveLength(1);
  });

  it('forgetting used nonces early never reopens a state: what expires by then is refused', async () => {
    let now = 0;
    const sealer = createRequestStateSealer({ ttlMs: 1_000, now: () => now, maxUsed: 3 });
    const states: string[] = [];
    for (let i = 0; i < 5; i++) {
      now = i;
      states.push(await sealer.seal('b', String(i)));
    }
    for (const [i, state] of states.entries()) expect(await sealer.open('b', state)).toBe(String(i));
    for (const state of states) expect(await sealer.open('b', state)).toBeNull();
  });

  it('digests arguments canonically: key order does not matter, values do', async () => {
    expect(await argumentsDigest({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(await argumentsDigest({ b: { d: 'x', c: [1, 2] }, a: 1 }));
    expect(await argumentsDigest({ a: 1 })).not.toBe(await argumentsDigest({ a: 2 }));
    expect(await argumentsDigest({ a: [1, 2] })).not.toBe(await argumentsDigest({ a: [2, 1] }));
    expect(await argumentsDigest({})).not.toBe(await argumentsDigest({ a: null }));
  });
});
