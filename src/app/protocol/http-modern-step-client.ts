// Who speaks in the HTTP stepper's 2026-07-28 scene: the project's dual-era client pinned to
// 2026-07-28 over the 2026-07-28 transport (src/protocol/http/modern-client-transport.ts), on
// the same tapped wire as the handshake scene — so every POST is a relayed connection the diagram
// draws. POST only, `_meta` in every body, MCP-Protocol-Version, Mcp-Method and Mcp-Name headers,
// no session id, no GET stream, no DELETE, no event ids.

import { DualEraClient } from '../../protocol/era/dual-era-client.ts';
import { ModernHttpClientTransport } from '../../protocol/http/modern-client-transport.ts';
import { HTTP_WIRE_URL, type HttpWire } from '../../runtime/http-tap-wire.ts';
import { HTTP_STEP_TIMEOUT_MS } from './http-step-clients.ts';

export const MODERN_HTTP_VERSION = '2026-07-28';

export interface ModernHttpStepClient {
  /** server/discover: the version both speak (no initialize: 2026-07-28 has none). */
  discover(): Promise<{ protocolVersion: string }>;
  listTools(): Promise<unknown>;
  /** tools/call echo with a progress token in `_meta`, next to the envelope's keys. */
  callWithProgress(args: Record<string, unknown>, progressToken: string): Promise<unknown>;
  onProgress(listener: (params: Record<string, unknown> | undefined) => void): void;
  dispose(): void;
}

export function modernStepClient(wire: HttpWire, timeoutMs = HTTP_STEP_TIMEOUT_MS): ModernHttpStepClient {
  const transport = new ModernHttpClientTransport({ url: HTTP_WIRE_URL, exchange: wire.exchange });
  const client = new DualEraClient(
    {
      kind: 'http',
      modern: transport,
      // Pinned: a legacy answer fails loudly instead of falling back, so this is never called.
      legacy: () => {
        throw new Error('the 2026-07-28 scene does not fall back to the handshake');
      },
    },
    { era: { pin: MODERN_HTTP_VERSION }, requestTimeoutMs: timeoutMs, probeTimeoutMs: timeoutMs },
  );
  return {
    discover: async () => ({ protocolVersion: (await client.connect()).protocolVersion }),
    listTools: () => client.listTools(),
    callWithProgress: (args, progressToken) => client.request('tools/call', { name: 'echo', arguments: args, _meta: { progressToken } }),
    onProgress(listener) {
      client.on((event) => {
        if (event.type === 'notification' && event.message.method === 'notifications/progress') listener(event.message.params as Record<string, unknown> | undefined);
      });
    },
    dispose: () => client.close(),
  };
}
