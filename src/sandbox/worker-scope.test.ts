// The worker side of the sandbox frame's handover: in a blob: worker, what the core posts waits for
// the MessagePort the frame sends first, then everything goes over that port, both ways; nothing
// else that arrives on the worker's own channel reaches the core. A worker the page starts itself
// (vite dev) keeps its own postMessage.

import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_PORT } from './sandbox-protocol.ts';
import { serveWorkerCore } from './worker-scope.ts';

type Listener = (event: { data: unknown; ports: readonly MessagePort[] }) => void;

/** Installs a fake worker global scope on globalThis for one test. */
function fakeScope(protocol: string) {
  const scope = globalThis as unknown as Record<string, unknown>;
  const saved = { location: scope.location, addEventListener: scope.addEventListener, postMessage: scope.postMessage };
  const listeners: Listener[] = [];
  const postedToSelf: unknown[] = [];
  scope.location = { protocol };
  scope.addEventListener = (type: string, listener: Listener) => {
    if (type === 'message') listeners.push(listener);
  };
  scope.postMessage = (message: unknown) => postedToSelf.push(message);
  restore = () => Object.assign(scope, saved);
  return { deliver: (data: unknown, ports: MessagePort[] = []) => listeners.forEach((listener) => listener({ data, ports })), postedToSelf };
}

let restore = () => {};
afterEach(() => restore());

/** The next message a port receives. */
const nextMessage = (port: MessagePort) => new Promise<unknown>((resolve) => (port.onmessage = (event) => resolve(event.data)));

describe('serveWorkerCore', () => {
  it('in a blob: worker, holds what the core posts until the frame hands over the port, then uses only that port', async () => {
    const { deliver, postedToSelf } = fakeScope('blob:');
    const handled: unknown[] = [];
    let post!: (message: string) => void;
    serveWorkerCore<string>((toPage) => {
      post = toPage;
      toPage('ready');
      return { handle: (message) => handled.push(message), reportUncaught: () => {} };
    });
    deliver({ type: 'run', from: 'not the frame' });
    const channel = new MessageChannel();
    const first = nextMessage(channel.port1);
    deliver({ type: SANDBOX_PORT }, [channel.port2]);
    expect(await first).toBe('ready');

    const fromPage = new Promise<void>((resolve) => {
      channel.port2.addEventListener('message', () => resolve());
    });
    channel.port1.postMessage('run 1');
    await fromPage;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(handled).toEqual(['run 1']);
    // A second "port" and anything else on the worker's own channel are ignored.
    const other = new MessageChannel();
    deliver({ type: SANDBOX_PORT }, [other.port2]);
    deliver('forged');
    const next = nextMessage(channel.port1);
    post('result');
    expect(await next).toBe('result');
    expect(handled).toEqual(['run 1']);
    expect(postedToSelf).toEqual([]);
    channel.port1.close();
    other.port1.close();
  });

  it('in a worker the page started itself, uses the worker’s own channel', () => {
    const { deliver, postedToSelf } = fakeScope('http:');
    const handled: unknown[] = [];
    serveWorkerCore<string>((toPage) => {
      toPage('ready');
      return { handle: (message) => handled.push(message), reportUncaught: () => {} };
    });
    deliver('run 1');
    expect(handled).toEqual(['run 1']);
    expect(postedToSelf).toEqual(['ready']);
  });
});
