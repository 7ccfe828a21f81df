import { describe, expect, it } from 'vitest';
import { describeHosts } from './host-rows.ts';

describe('describeHosts', () => {
  it('marks the chosen host live, gives reasons for the others, and notes hosts never tried', () => {
    const rows = describeHosts(['webcontainer', 'bridge', 'worker'], {
      status: 'chosen',
      kind: 'bridge',
      availability: [
        { kind: 'webcontainer', status: 'unavailable', reason: 'did not boot within 8 s' },
        { kind: 'bridge', status: 'available' },
      ],
    });
    expect(rows).toEqual([
      { kind: 'webcontainer', status: 'unavailable', reason: 'did not boot within 8 s' },
      { kind: 'bridge', status: 'live' },
      { kind: 'worker', status: 'not-probed' },
    ]);
  });

  it('shows an available host that was passed over', () => {
    const rows = describeHosts(['bridge', 'worker'], {
      status: 'chosen',
      kind: 'bridge',
      availability: [
        { kind: 'bridge', status: 'available' },
        { kind: 'worker', status: 'available' },
      ],
    });
    expect(rows[1]).toEqual({ kind: 'worker', status: 'available' });
  });

  it('lists nothing while probing, and every reason when no host works', () => {
    expect(describeHosts(['bridge'], { status: 'probing' })).toEqual([]);
    expect(describeHosts(['bridge'], { status: 'none', availability: [{ kind: 'bridge', status: 'unavailable', reason: 'no token' }] })).toEqual([
      { kind: 'bridge', status: 'unavailable', reason: 'no token' },
    ]);
  });
});
