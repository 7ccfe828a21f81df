import { describe, expect, it } from 'vitest';
import { HOST_KINDS } from './host.ts';
import { learnerServerSupport, sdkEchoServerSupport } from './learner-server-support.ts';

describe('learnerServerSupport', () => {
  it('runs everywhere except on a shared bridge, which says why', () => {
    expect(learnerServerSupport('worker', true)).toEqual({ ok: true });
    expect(learnerServerSupport('webcontainer', true)).toEqual({ ok: true });
    expect(learnerServerSupport('bridge', false)).toEqual({ ok: true });
    const shared = learnerServerSupport('bridge', true);
    expect(shared).toMatchObject({ ok: false, code: 'shared-bridge' });
    if (!shared.ok) {
      expect(shared.reason).toContain('loopback');
    }
  });

  it('sdk-echo-server runs in every host', () => {
    for (const host of HOST_KINDS) expect(sdkEchoServerSupport(host)).toEqual({ ok: true });
  });

});
