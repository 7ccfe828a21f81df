// The official SDK's Streamable HTTP echo server (sdk-http-echo.ts) as the in-browser worker serves
// it: over HTTP/1.1 bytes on in-memory connections, with the relay tap's events, exactly as
// mcp-http-worker-core.ts serves mcp-http — so the page cannot tell the worker from the bridge's
// Node program (server/sdk-http-server.ts) by anything but the headers node:http adds itself.

import type { HttpWorkerServing } from './mcp-http-worker-core.ts';
import { createSdkHttpHandler } from './sdk-http-echo.ts';

export const SDK_HTTP_READY_LINE = '[sdk-http-server] pid 0 (in-browser worker), the official SDK 1.32.2 StreamableHTTP server (echo), serving HTTP/1.1 in the worker';

export const SDK_HTTP_SERVING: HttpWorkerServing = {
  program: 'sdk-http-server',
  argv: ['sdk-http-server.mjs'],
  readyLine: SDK_HTTP_READY_LINE,
  createHandler: createSdkHttpHandler,
};
