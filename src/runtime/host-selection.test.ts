import { describe, expect, it, vi } from 'vitest';
import type { Host, HostAvailability, HostKind } from './host.ts';
import { browserIsOffline, createDefaultHosts, OFFLINE_WEBCONTAINER_REASON, WEBCONTAINER_NOT_CHOSEN_REASON, parseForcedHost, selectHost, type HostEntries } from './host-selection.ts';

type Outcome = 'available' | string | Error;

/** Fake hosts: each outcome is "available", an unavailability reason, or an Error the probe throws. */
function fakeHosts(outcomes: Record<HostKind, Outcome>) {
  const probed: HostKind[] = [];
  const entry = (kind: HostKind) => {
    const host: Host = {
      kind,
      start: () => Promise.reject(new Error('not used in these tests')),
    };
    return {
      host,
      async probe(): Promise<HostAvailability> {
        probed.push(kind);
        const outcome = outcomes[kind];
        if (outcome instanceof Error) throw outcome;
        return outcome === 'available' ? { kind, status: 'available' } : { kind, status: 'unavailable', reason: outcome };
      },
    };
  };
  const hosts: HostEntries = { webcontainer: entry('webcontainer'), bridge: entry('bridge'), worker: entry('worker') };
  return { hosts, probed };
}

function reasons(availability: HostAvailability[]): Record<string, string> {
  return Object.fromEntries(availability.map((item) => [item.kind, item.status === 'available' ? 'available' : item.reason]));
}

describe('selectHost', () => {
  it('takes the WebContainer when it boots, and does not probe the others', async () => {
    const { hosts, probed } = fakeHosts({ webcontainer: 'available', bridge: 'available', worker: 'available' });
    const selection = await selectHost({ hosts });
    expect(selection.chosen).toBe(hosts.webcontainer.host);
    expect(probed).toEqual(['webcontainer']);
    expect(reasons(selection.availability)).toEqual({
      webcontainer: 'available',
      bridge: 'not tried: webcontainer is available and comes first',
      worker: 'not tried: webcontainer is available and comes first',
    });
  });

  it('never probes an unchosen WebContainer (no StackBlitz request), unless ?host= forces it', async () => {
    const { hosts, probed } = fakeHosts({ webcontainer: 'available', bridge: 'available', worker: 'available' });
    const selection = await selectHost({ hosts, webContainerChosen: () => false, isOffline: () => false });
    expect(selection.chosen).toBe(hosts.bridge.host);
    expect(probed).toEqual(['bridge']);
    expect(reasons(selection.availability).webcontainer).toBe(WEBCONTAINER_NOT_CHOSEN_REASON);

    const forced = fakeHosts({ webcontainer: 'available', bridge: 'available', worker: 'available' });
    expect((await selectHost({ hosts: forced.hosts, forced: 'webcontainer', webContainerChosen: () => false, isOffline: () => false })).chosen).toBe(forced.hosts.webcontainer.host);
    expect(forced.probed).toEqual(['webcontainer']);

    const chosen = fakeHosts({ webcontainer: 'available', bridge: 'available', worker: 'available' });
    expect((await selectHost({ hosts: chosen.hosts, webContainerChosen: () => true, isOffline: () => false })).chosen).toBe(chosen.hosts.webcontainer.host);
    expect(chosen.probed).toEqual(['webcontainer']);
  });

  it('falls back to the bridge when the WebContainer cannot boot', async () => {
    const { hosts, probed } = fakeHosts({ webcontainer: 'boot timed out', bridge: 'available', worker: 'available' });
    const selection = await selectHost({ hosts });
    expect(selection.chosen).toBe(hosts.bridge.host);
    expect(probed).toEqual(['webcontainer', 'bridge']);
    expect(reasons(selection.availability)).toEqual({
      webcontainer: 'boot timed out',
      bridge: 'available',
      worker: 'not tried: bridge is available and comes first',
    });
  });

  it('falls back to the worker when neither WebContainer nor bridge works', async () => {
    const { hosts, probed } = fakeHosts({ webcontainer: 'not isolated', bridge: 'no token', worker: 'available' });
    const selection = await selectHost({ hosts });
    expect(selection.chosen).toBe(hosts.worker.host);
    expect(probed).toEqual(['webcontainer', 'bridge', 'worker']);
    expect(reasons(selection.availability)).toEqual({ webcontainer: 'not isolated', bridge: 'no token', worker: 'available' });
  });

  it('chooses nothing, with every reason, when no host works', async () => {
    const { hosts } = fakeHosts({ webcontainer: 'a', bridge: 'b', worker: 'c' });
    const selection = await selectHost({ hosts });
    expect(selection.chosen).toBeNull();
    expect(reasons(selection.availability)).toEqual({ webcontainer: 'a', bridge: 'b', worker: 'c' });
  });

  it('turns a probe that throws into a reason and moves on', async () => {
    const { hosts } = fakeHosts({ webcontainer: new Error('kaboom'), bridge: 'available', worker: 'available' });
    const selection = await selectHost({ hosts });
    expect(selection.chosen).toBe(hosts.bridge.host);
    expect(reasons(selection.availability).webcontainer).toBe('the webcontainer check failed: kaboom');
  });

  it('tries only the forced host and says why the others were not tried', async () => {
    const { hosts, probed } = fakeHosts({ webcontainer: 'available', bridge: 'available', worker: 'available' });
    const selection = await selectHost({ hosts, forced: 'worker' });
    expect(selection.chosen).toBe(hosts.worker.host);
    expect(probed).toEqual(['worker']);
    expect(reasons(selection.availability)).toEqual({
      webcontainer: 'not tried: ?host=worker forces worker',
      bridge: 'not tried: ?host=worker forces worker',
      worker: 'available',
    });
  });

  it('does not fall back from a forced host that is unavailable', async () => {
    const { hosts, probed } = fakeHosts({ webcontainer: 'available', bridge: 'no bridge here', worker: 'available' });
    const selection = await selectHost({ hosts, forced: 'bridge' });
    expect(selection.chosen).toBeNull();
    expect(probed).toEqual(['bridge']);
    expect(reasons(selection.availability).bridge).toBe('no bridge here');
  });

  it("carries a code beside each reason it writes, and passes a probe's own code on", async () => {
    const codes = (availability: HostAvailability[]) => availability.map((item) => (item.status === 'available' ? 'available' : item.why));
    const chosen = await selectHost({ hosts: fakeHosts({ webcontainer: new Error('kaboom'), bridge: 'available', worker: 'available' }).hosts, isOffline: () => false });
    expect(codes(chosen.availability)).toEqual([{ code: 'check-failed', host: 'webcontainer', detail: 'kaboom' }, 'available', { code: 'not-tried-chosen', chosen: 'bridge' }]);
    const forced = await selectHost({ hosts: fakeHosts({ webcontainer: 'a', bridge: 'b', worker: 'available' }).hosts, forced: 'worker' });
    expect(codes(forced.availability)).toEqual([{ code: 'not-tried-forced', forced: 'worker' }, { code: 'not-tried-forced', forced: 'worker' }, 'available']);
    const offline = await selectHost({ hosts: fakeHosts({ webcontainer: 'available', bridge: 'available', worker: 'available' }).hosts, isOffline: () => true });
    expect(codes(offline.availability)[0]).toEqual({ code: 'offline' });
    const { hosts } = fakeHosts({ webcontainer: 'available', bridge: 'available', worker: 'available' });
    hosts.webcontainer.probe = async () => ({ kind: 'webcontainer', status: 'unavailable', reason: 'x', why: { code: 'not-isolated' } });
    expect(codes((await selectHost({ hosts, isOffline: () => false })).availability)[0]).toEqual({ code: 'not-isolated' });
  });

  it('always reports the hosts in preference order', async () => {
    const { hosts } = fakeHosts({ webcontainer: 'x', bridge: 'available', worker: 'available' });
    const selection = await selectHost({ hosts, forced: 'bridge' });
    expect(selection.availability.map((item) => item.kind)).toEqual(['webcontainer', 'bridge', 'worker']);
  });
});

describe('selectHost when the browser is offline', () => {
  const offline = () => true;

  it('does not wait for the WebContainer: says why and goes straight to the bridge', async () => {
    const { hosts, probed } = fakeHosts({ webcontainer: 'available', bridge: 'available', worker: 'available' });
    const selection = await selectHost({ hosts, isOffline: offline });
    expect(selection.chosen).toBe(hosts.bridge.host);
    expect(probed).toEqual(['bridge']);
    expect(reasons(selection.availability).webcontainer).toBe(OFFLINE_WEBCONTAINER_REASON);
    expect(OFFLINE_WEBCONTAINER_REASON).toMatch(/^offline: WebContainer needs StackBlitz's servers/);
  });

  it('goes to the worker at once when there is no bridge', async () => {
    const { hosts, probed } = fakeHosts({ webcontainer: 'available', bridge: 'no token', worker: 'available' });
    const selection = await selectHost({ hosts, isOffline: offline });
    expect(selection.chosen).toBe(hosts.worker.host);
    expect(probed).toEqual(['bridge', 'worker']);
  });

  it('is fast even when the WebContainer boot would hang forever: it chooses with the clock stopped', async () => {
    vi.useFakeTimers();
    try {
      const { hosts } = fakeHosts({ webcontainer: 'available', bridge: 'no token', worker: 'available' });
      hosts.webcontainer.probe = () => new Promise(() => {});
      let chosen: unknown = 'not yet';
      void selectHost({ hosts, isOffline: offline }).then((selection) => (chosen = selection.chosen));
      // Pending promise callbacks run; no timer fires and no time passes.
      await vi.advanceTimersByTimeAsync(0);
      expect(chosen).toBe(hosts.worker.host);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a forced WebContainer offline is refused with the same reason, without probing', async () => {
    const { hosts, probed } = fakeHosts({ webcontainer: 'available', bridge: 'available', worker: 'available' });
    const selection = await selectHost({ hosts, forced: 'webcontainer', isOffline: offline });
    expect(selection.chosen).toBeNull();
    expect(probed).toEqual([]);
    expect(reasons(selection.availability).webcontainer).toBe(OFFLINE_WEBCONTAINER_REASON);
  });

  it('online (or unknown), the WebContainer is probed as before', async () => {
    const { hosts, probed } = fakeHosts({ webcontainer: 'available', bridge: 'available', worker: 'available' });
    expect((await selectHost({ hosts, isOffline: () => false })).chosen).toBe(hosts.webcontainer.host);
    expect(probed).toEqual(['webcontainer']);
  });

  it('reads navigator.onLine, and only a definite false means offline', () => {
    const original = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
    try {
      for (const [onLine, expected] of [[false, true], [true, false], [undefined, false]] as const) {
        Object.defineProperty(globalThis, 'navigator', { value: { onLine }, configurable: true });
        expect(browserIsOffline()).toBe(expected);
      }
    } finally {
      if (original) Object.defineProperty(globalThis, 'navigator', original);
      else Reflect.deleteProperty(globalThis, 'navigator');
    }
  });
});

describe('parseForcedHost', () => {
  it('reads each known host', () => {
    expect(parseForcedHost('?host=webcontainer')).toEqual({ ok: true, forced: 'webcontainer' });
    expect(parseForcedHost('?lang=zh&host=bridge')).toEqual({ ok: true, forced: 'bridge' });
    expect(parseForcedHost('host=Worker')).toEqual({ ok: true, forced: 'worker' });
  });

  it('means "choose automatically" when absent or empty', () => {
    expect(parseForcedHost('')).toEqual({ ok: true, forced: null });
    expect(parseForcedHost('?host=')).toEqual({ ok: true, forced: null });
  });

  it('refuses other values with a reason that lists the choices', () => {
    const parsed = parseForcedHost('?host=docker');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.reason).toContain('?host=docker is not a host');
    expect(parsed.reason).toContain('?host=webcontainer, ?host=bridge, ?host=worker');
  });
});

describe('createDefaultHosts', () => {
  it('creates one host of each kind', () => {
    const hosts = createDefaultHosts();
    expect(hosts.webcontainer.host.kind).toBe('webcontainer');
    expect(hosts.bridge.host.kind).toBe('bridge');
    expect(hosts.worker.host.kind).toBe('worker');
  });

  it('in Node (no page, no isolation, no Worker) every default host explains itself', async () => {
    const selection = await selectHost({ hosts: createDefaultHosts() });
    expect(selection.chosen).toBeNull();
    expect(reasons(selection.availability)).toEqual({
      webcontainer: expect.stringContaining('not cross-origin isolated'),
      bridge: expect.stringContaining('not served by `npm start`'),
      worker: 'this browser has no Web Workers',
    });
  });
});
