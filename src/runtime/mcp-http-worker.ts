// The Web Worker entry for mcp-http in the in-browser host (the logic is in mcp-http-worker-core.ts).

import { createMcpHttpWorkerCore } from './mcp-http-worker-core.ts';
import type { TapEvent } from './tap-protocol.ts';

const scope = globalThis as unknown as {
  postMessage(message: TapEvent): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
};

const core = createMcpHttpWorkerCore({ post: (event) => scope.postMessage(event) });
scope.addEventListener('message', (event) => core.handle(event.data));
