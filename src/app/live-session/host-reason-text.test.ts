// The live panel words each host reason from its code; the English words must be the runtime's own
// sentence (what the e2e tests and the logs read), and the Chinese ones Chinese. Every reason here
// comes from the real hosts and host selection, so a code the runtime sends is a code this covers.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestI18n } from '../i18n/testing.ts';
import type { HostAvailability, HostKind, HostReasonCode } from '../../runtime/host.ts';
import { createWebContainerHost, type WebContainerLike } from '../../runtime/webcontainer-host.ts';
import { createBridgeHost } from '../../runtime/bridge-host.ts';
import { createWorkerHost } from '../../runtime/worker-host.ts';
import { selectHost, type HostEntries } from '../../runtime/host-selection.ts';
import { hostReasonText } from './host-reason-text.ts';

type Unavailable = Extract<HostAvailability, { status: 'unavailable' }>;

function unavailable(availability: HostAvailability): Unavailable {
  if (availability.status !== 'unavailable') throw new Error(`expected unavailable, got ${JSON.stringify(availability)}`);
  return availability;
}

/** A WebSocket stand-in: `behaviour` decides whether the constructor throws, the socket closes, or nothing happens. */
function fakeSocket(behaviour: 'throw' | 'close' | 'silent'): typeof WebSocket {
  class FakeSocket {
    onopen: (() => void) | null = null;
    onclose: ((event: { code: number; reason: string }) => void) | null = null;
    onerror: ((event: unknown) => void) | null = null;
    constructor() {
      if (behaviour === 'throw') throw new Error('bad url');
      if (behaviour === 'close') queueMicrotask(() => this.onclose?.({ code: 1006, reason: '' }));
    }
    close(): void {}
  }
  return FakeSocket as unknown as typeof WebSocket;
}

/** A browser without WebSocket (Node has one, so it is taken away for this probe only). */
async function noWebSocket(): Promise<HostAvailability> {
  vi.stubGlobal('WebSocket', undefined);
  try {
    return await createBridgeHost({ token: 't', url }).probe();
  } finally {
    vi.unstubAllGlobals();
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const never = () => new Promise<WebContainerLike>(() => {});
const url = 'ws://127.0.0.1:1/bridge';

/** One real unavailability per code the runtime sends. */
async function everyReason(): Promise<Unavailable[]> {
  const probes: Promise<HostAvailability>[] = [
    createWebContainerHost({ isolated: () => false }).probe(),
    createWebContainerHost({ isolated: () => true, hasSharedArrayBuffer: () => false }).probe(),
    createWebContainerHost({ isolated: () => true, hasSharedArrayBuffer: () => true, boot: never, timeoutMs: 300 }).probe(),
    createWebContainerHost({ isolated: () => true, hasSharedArrayBuffer: () => true, boot: () => Promise.reject(new Error('no runtime')) }).probe(),
    createWebContainerHost({
      isolated: () => true,
      hasSharedArrayBuffer: () => true,
      boot: () => Promise.resolve({} as WebContainerLike),
      fetchProgram: () => Promise.reject(new Error('404')),
    }).probe(),
    createBridgeHost({ url, WebSocketImpl: fakeSocket('silent') }).probe(),
    createBridgeHost({ token: 't', WebSocketImpl: fakeSocket('silent') }).probe(),
    createBridgeHost({ token: 't', url, WebSocketImpl: fakeSocket('throw') }).probe(),
    createBridgeHost({ token: 't', url, WebSocketImpl: fakeSocket('close') }).probe(),
    createBridgeHost({ token: 't', url, WebSocketImpl: fakeSocket('silent'), connectTimeoutMs: 20 }).probe(),
    createWorkerHost().probe(),
    noWebSocket(),
  ];
  const direct = (await Promise.all(probes)).map(unavailable);
  const entry = (kind: HostKind, probe: () => Promise<HostAvailability>) => ({ probe, host: { kind, start: () => Promise.reject(new Error('unused')) } });
  const hosts: HostEntries = {
    webcontainer: entry('webcontainer', () => Promise.reject(new Error('boom'))),
    bridge: entry('bridge', () => Promise.resolve({ kind: 'bridge', status: 'available' })),
    worker: entry('worker', () => Promise.resolve({ kind: 'worker', status: 'available' })),
  };
  const chosen = await selectHost({ hosts, isOffline: () => false });
  const forced = await selectHost({ hosts, forced: 'worker', isOffline: () => false });
  const offline = await selectHost({ hosts, isOffline: () => true });
  const notChosen = await selectHost({ hosts, isOffline: () => false, webContainerChosen: () => false });
  return [...direct, ...[...chosen.availability, ...forced.availability, ...offline.availability, ...notChosen.availability].filter((a) => a.status === 'unavailable')];
}

const ALL_CODES: HostReasonCode['code'][] = [
  'boot-timeout',
  'boot-failed',
  'mount-failed',
  'not-isolated',
  'no-shared-array-buffer',
  'offline',
  'not-chosen',
  'not-tried-chosen',
  'not-tried-forced',
  'no-bridge-token',
  'no-page-address',
  'no-websocket',
  'bridge-unreachable',
  'bridge-closed',
  'bridge-silent',
  'no-workers',
  'check-failed',
];

describe('hostReasonText', () => {
  it('the real hosts send every code', async () => {
    const codes = new Set((await everyReason()).map((reason) => reason.why?.code));
    expect([...codes].sort()).toEqual([...ALL_CODES].sort());
  });

  it('in English, says what the runtime says, word for word', async () => {
    const t = createTestI18n('en').getFixedT('en', 'live');
    const reasons = await everyReason();
    for (const reason of reasons) {
      if (reason.why?.code === 'not-tried-chosen' || reason.why?.code === 'not-tried-forced' || reason.why?.code === 'check-failed') continue;
      expect(hostReasonText(t, reason)).toBe(reason.reason);
    }
    // These name the host as the panel does ("Local bridge"), where the runtime uses its id.
    const named = reasons.filter((reason) => reason.why?.code === 'not-tried-chosen' || reason.why?.code === 'not-tried-forced' || reason.why?.code === 'check-failed');
    expect(named.map((reason) => hostReasonText(t, reason))).toEqual(
      expect.arrayContaining([
        'not tried: Local bridge is available and comes first',
        'not tried: ?host=worker forces In-browser worker',
        'the WebContainer check failed: boom',
      ]),
    );
    expect(hostReasonText(t, reasons.find((reason) => reason.why?.code === 'boot-timeout')!)).toMatch(/^WebContainer did not boot within 0.3 s\./);
  });

  it('in Chinese, says every reason in Chinese, with its values', async () => {
    const t = createTestI18n('zh-CN').getFixedT('zh-CN', 'live');
    const reasons = await everyReason();
    for (const reason of reasons) {
      const text = hostReasonText(t, reason);
      expect(text, reason.reason).toMatch(/[\u4e00-\u9fff]/);
      expect(text).not.toBe(reason.reason);
    }
    const byCode = (code: HostReasonCode['code']) => hostReasonText(t, reasons.find((reason) => reason.why?.code === code)!);
    expect(byCode('not-tried-chosen')).toBe('未尝试：排在前面的环境（本地桥接）已可用');
    expect(byCode('bridge-silent')).toBe(`位于 ${url} 的桥接在 20 毫秒内没有应答`);
    expect(byCode('boot-timeout')).toMatch(/^WebContainer 在 0.3 秒内没有启动。/);
  });

  it('shows a reason without a code as the host wrote it', () => {
    const t = createTestI18n('zh-CN').getFixedT('zh-CN', 'live');
    expect(hostReasonText(t, { reason: 'some browser error' })).toBe('some browser error');
  });
});
