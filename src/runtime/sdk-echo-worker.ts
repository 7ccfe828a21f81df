// The Web Worker entry of the official SDK's echo server in the browser (see sdk-echo-worker-core.ts).
// Its own worker, loaded only when a page starts sdk-echo-server: the SDK and zod stay out of the
// page's first bundle and out of the echo worker.

import { createSdkEchoWorkerCore } from './sdk-echo-worker-core.ts';
import type { TapEvent } from './tap-protocol.ts';

// The project's lib list has no WebWorker types (the page's DOM types would clash), so the worker
// scope is described by the two members used.
const scope = globalThis as unknown as {
  postMessage(message: TapEvent): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
};

const core = createSdkEchoWorkerCore({ post: (event) => scope.postMessage(event) });
scope.addEventListener('message', (event) => core.handle(event.data));
