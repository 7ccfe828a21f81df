// A worker that runs learner code, started inside the sandbox frame instead of by the page, seen
// through the same CallbackWorker surface as `adaptWorker(new Worker(url))`, so the spec runner,
// the learner-worker client and the worker host do not change. The page keeps one end of a
// MessageChannel; the worker gets the other from the frame. Messages posted before the worker is up
// wait in the channel.

import { sandboxFrame } from './sandbox-frame-client.ts';
import { adaptWorker, type CallbackWorker } from './worker-adapter.ts';
import { workerSource } from './worker-source.ts';

// Set by server/vite-sandbox-plugin.ts; absent where that plugin is not (unit tests in Node).
declare const __SANDBOX_FRAME_URL__: string | undefined;

let nextId = 1;

/**
 * Start the worker bundle at `bundleUrl` (a `?worker&url` import) in the sandbox frame.
 * `vite dev` serves workers as ES modules that import other files, which a blob: worker on an
 * opaque origin cannot load: there (and only there) the worker runs on the page's origin.
 */
export function startSandboxedWorker<Outgoing>(bundleUrl: string, name: string): CallbackWorker<Outgoing> {
  if (import.meta.env.DEV || typeof __SANDBOX_FRAME_URL__ !== 'string') return adaptWorker(new Worker(bundleUrl, { type: 'module', name }));
  const frameUrl = __SANDBOX_FRAME_URL__;
  const id = nextId++;
  const channel = new MessageChannel();
  const errorListeners = new Set<(message: string) => void>();
  let terminated = false;
  let failure: string | undefined;
  const fail = (message: string) => {
    if (terminated || failure !== undefined) return;
    failure = message;
    for (const listener of [...errorListeners]) listener(message);
  };

  Promise.all([sandboxFrame(frameUrl), workerSource(bundleUrl)]).then(
    ([frame, source]) => {
      if (terminated) return;
      frame.onWorkerError(id, fail);
      if (!frame.defined.has(bundleUrl)) {
        frame.defined.add(bundleUrl);
        frame.send({ type: 'define', key: bundleUrl, source });
      }
      frame.send({ type: 'start', id, key: bundleUrl, name }, [channel.port2]);
      stopFrameWorker = () => {
        frame.forget(id);
        frame.send({ type: 'terminate', id });
      };
    },
    (error: unknown) => fail(error instanceof Error ? error.message : String(error)),
  );
  let stopFrameWorker = () => {};

  return {
    postMessage: (message) => {
      if (!terminated) channel.port1.postMessage(message);
    },
    onMessage: (listener) => {
      channel.port1.addEventListener('message', (event: MessageEvent) => listener(event.data));
      channel.port1.start();
    },
    onError: (listener) => {
      errorListeners.add(listener);
      channel.port1.addEventListener('messageerror', () => listener('a message from the worker could not be read'));
      // A failure before anyone listened is not lost.
      if (failure !== undefined) queueMicrotask(() => listener(failure as string));
    },
    terminate: () => {
      if (terminated) return;
      terminated = true;
      stopFrameWorker();
      channel.port1.close();
    },
  };
}
