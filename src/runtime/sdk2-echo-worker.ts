// The Web Worker entry of the SDK 2.4.0 echo server in the browser (see sdk2-echo-serving.ts).
// Its own worker, loaded only when a page starts sdk2-echo-server.

import { createSdkEchoWorkerCore } from './sdk-echo-worker-core.ts';
import { SDK2_SERVING } from './sdk2-echo-serving.ts';
import type { TapEvent } from './tap-protocol.ts';

const scope = globalThis as unknown as {
  postMessage(message: TapEvent): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
};

const core = createSdkEchoWorkerCore({ post: (event) => scope.postMessage(event), serving: SDK2_SERVING });
scope.addEventListener('message', (event) => core.handle(event.data));
