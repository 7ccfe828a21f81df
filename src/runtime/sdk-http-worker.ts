// The Web Worker entry of the official SDK's Streamable HTTP echo server in the browser (see
// sdk-http-serving.ts). Its own worker, loaded only when a page starts sdk-http-server.

import { createMcpHttpWorkerCore } from './mcp-http-worker-core.ts';
import { SDK_HTTP_SERVING } from './sdk-http-serving.ts';
import type { TapEvent } from './tap-protocol.ts';

const scope = globalThis as unknown as {
  postMessage(message: TapEvent): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
};

const core = createMcpHttpWorkerCore({ post: (event) => scope.postMessage(event), serving: SDK_HTTP_SERVING });
scope.addEventListener('message', (event) => core.handle(event.data));
