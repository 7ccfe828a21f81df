// Progress for tool calls (2025-11-25, basic/utilities/progress): when a tools/call carries
// `_meta.progressToken`, the server MAY send `notifications/progress` with that token, and the
// progress value MUST increase. This wrapper reports the two points every call has — started (0
// of 1) and finished (1 of 1) — around any server's tools/call, through the transport's
// request-scoped `send`, so the notifications travel on that request's own SSE stream.

import { encodeNotification, isRequest, validateMessage, type JsonRpcMessage, type JsonRpcResponse } from './jsonrpc.ts';

export interface ProgressCapableServer {
  handle(value: unknown): Promise<JsonRpcResponse | null> | JsonRpcResponse | null;
}

export interface RequestSender {
  send(message: JsonRpcMessage): void;
}

export function withToolProgress(server: ProgressCapableServer) {
  return {
    async handle(value: unknown, context?: RequestSender): Promise<JsonRpcResponse | null> {
      const token = progressTokenOf(value);
      if (token === undefined || context === undefined) return server.handle(value);
      const report = (progress: number, message: string) =>
        context.send(encodeNotification('notifications/progress', { progressToken: token, progress, total: 1, message }));
      report(0, 'started');
      const response = await server.handle(value);
      // Only a call that is answered is finished; a cancelled one gets neither result nor 100%.
      if (response !== null) report(1, 'finished');
      return response;
    },
  };
}

/** The progress token of a tools/call request, if it asked for progress. */
function progressTokenOf(value: unknown): string | number | undefined {
  const outcome = validateMessage(value);
  if (!outcome.ok || !isRequest(outcome.message) || outcome.message.method !== 'tools/call') return undefined;
  const params = outcome.message.params as { _meta?: { progressToken?: unknown } } | undefined;
  const token = params?._meta?.progressToken;
  return typeof token === 'string' || (typeof token === 'number' && Number.isInteger(token)) ? token : undefined;
}
