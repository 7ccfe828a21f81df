// SDK 2.4.0's serveStdio over the worker's stdio-like transport: the same entry the Node program
// (server/sdk2-echo-server.ts) runs, with the same factory, so "Check my client" meets the same
// SDK 2.x server on every host.

import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { SdkServing } from './sdk-echo-worker-core.ts';
import { SDK2_ECHO_READY_LINE, createSdk2EchoServer } from './sdk2-echo-tool.ts';

export const SDK2_SERVING: SdkServing = {
  program: 'sdk2-echo-server',
  readyLine: SDK2_ECHO_READY_LINE,
  eras: ['dual', 'modern'],
  async serve(transport, era) {
    // The transport speaks JSON-RPC lines exactly as the SDK's own stdio transport does.
    return serveStdio(() => createSdk2EchoServer(), { legacy: era === 'modern' ? 'reject' : 'serve', transport: transport as never });
  },
};
