// The defaults of the WebContainer host that the integration test (with a fake WebContainer
// running real Node) replaces: where the programs are fetched from, and where isolation is read.
// The real runtime itself cannot load here: it needs StackBlitz's servers and a browser.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOT_ISOLATED_REASON, createWebContainerHost, type MountTree, type WebContainerLike } from './webcontainer-host.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

function recordingContainer() {
  const mounted: MountTree[] = [];
  const container: WebContainerLike = {
    mount: async (tree) => void mounted.push(tree),
    spawn: () => Promise.reject(new Error('not used')),
  };
  return { container, mounted };
}

describe('createWebContainerHost defaults', () => {
  it('fetches the three programs from <base>generated/ and mounts them as .mjs files', async () => {
    const fetched: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      fetched.push(url);
      return new Response(`// ${url}`, { status: 200 });
    });
    const { container, mounted } = recordingContainer();
    const host = createWebContainerHost({ boot: async () => container, isolated: () => true });
    expect(await host.probe()).toEqual({ kind: 'webcontainer', status: 'available' });
    expect(fetched.sort()).toEqual(['/generated/echo-server.mjs', '/generated/sdk-echo-server.mjs', '/generated/tap.mjs']);
    expect(mounted).toEqual([
      {
        'tap.mjs': { file: { contents: '// /generated/tap.mjs' } },
        'echo-server.mjs': { file: { contents: '// /generated/echo-server.mjs' } },
        'sdk-echo-server.mjs': { file: { contents: '// /generated/sdk-echo-server.mjs' } },
      },
    ]);
  });

  it('says how to build a program the server does not have', async () => {
    vi.stubGlobal('fetch', async () => new Response('not found', { status: 404 }));
    const { container } = recordingContainer();
    const availability = await createWebContainerHost({ boot: async () => container, isolated: () => true }).probe();
    expect(availability.status).toBe('unavailable');
    if (availability.status !== 'unavailable') return;
    expect(availability.reason).toMatch(/\/generated\/(tap|echo-server|sdk-echo-server)\.mjs answered 404/);
    expect(availability.reason).toContain('npx tsx scripts/build-node-programs.ts');
  });

  it('reads cross-origin isolation from the page', async () => {
    const { container } = recordingContainer();
    vi.stubGlobal('fetch', async () => new Response('', { status: 200 }));
    vi.stubGlobal('crossOriginIsolated', false);
    const host = createWebContainerHost({ boot: async () => container });
    expect(await host.probe()).toEqual({ kind: 'webcontainer', status: 'unavailable', reason: NOT_ISOLATED_REASON, why: { code: 'not-isolated' } });
    vi.stubGlobal('crossOriginIsolated', true);
    expect(await host.probe()).toEqual({ kind: 'webcontainer', status: 'available' });
  });

  it('rejects start with the same reason probe gives', async () => {
    const host = createWebContainerHost({ boot: () => new Promise(() => {}), isolated: () => false });
    await expect(host.start({ program: 'echo-server', framing: 'ndjson', faults: [] })).rejects.toThrow(NOT_ISOLATED_REASON);
  });
});
