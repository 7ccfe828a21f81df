// Shared by the HTTP tests: a server that can send related and unrelated messages on demand, and
// readers for response bodies. Not used by production code.

import { SseReader, type SseEvent } from '../framing/sse.ts';
import { encodeNotification, encodeResult, isRequest, validateMessage, type JsonRpcMessage } from '../jsonrpc.ts';
import { McpServer } from '../server.ts';
import { createEchoTools, ECHO_SERVER_INFO } from '../echo-tools.ts';
import type { HttpServerFactory, ServerChannel } from './server-session.ts';
import type { HttpBody, HttpRequest, HttpResponse } from './types.ts';

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * The reference McpServer with the echo tools, plus test methods:
 * `test/related` sends a related notification, then answers; `test/wait` answers when the test
 * resolves `gate`; `test/unrelated` sends a notification on the session's own stream and answers;
 * `test/related-late` answers, then sends a related notification after `gate`; `test/poll` sends
 * one notification, closes the connection (not the stream) and answers after `gate`.
 */
export function testServerFactory(gate: { current: Deferred<void> }, channels: ServerChannel[] = []): HttpServerFactory {
  return (channel) => {
    channels.push(channel);
    const mcp = new McpServer({ serverInfo: ECHO_SERVER_INFO, tools: createEchoTools(), requireInitialized: false });
    return {
      async handle(value, context) {
        const outcome = validateMessage(value);
        if (outcome.ok && isRequest(outcome.message)) {
          const { id, method } = outcome.message;
          if (method === 'test/related') {
            context?.send(encodeNotification('notifications/progress', { progressToken: 't', progress: 1 }));
            return encodeResult(id, { done: true });
          }
          if (method === 'test/wait') {
            context?.send(encodeNotification('notifications/message', { level: 'info', data: 'waiting' }));
            await gate.current.promise;
            return encodeResult(id, { waited: true });
          }
          if (method === 'test/unrelated') {
            channel.send(encodeNotification('notifications/tools/list_changed'));
            return encodeResult(id, {});
          }
          if (method === 'test/poll') {
            context?.send(encodeNotification('notifications/message', { level: 'info', data: 'before' }));
            context?.closeConnection();
            await gate.current.promise;
            return encodeResult(id, { polled: true });
          }
          if (method === 'test/related-late') {
            void gate.current.promise.then(() => context?.send(encodeNotification('notifications/message', { level: 'info', data: 'late' })));
            return encodeResult(id, {});
          }
        }
        return mcp.handle(value);
      },
    };
  };
}

const utf8 = new TextEncoder();

export const INITIALIZE = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

export function post(body: unknown, headers: Record<string, string> = {}): HttpRequest {
  return {
    method: 'POST',
    path: '/mcp',
    headers: { host: '127.0.0.1:3000', accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? utf8.encode(body) : utf8.encode(JSON.stringify(body)),
  };
}

export function get(headers: Record<string, string> = {}): HttpRequest {
  return { method: 'GET', path: '/mcp', headers: { host: '127.0.0.1:3000', accept: 'text/event-stream', ...headers } };
}

export function jsonBody(response: HttpResponse): unknown {
  if (response.body.type !== 'bytes') throw new Error(`expected a JSON body, got ${response.body.type}`);
  return JSON.parse(new TextDecoder().decode(response.body.bytes));
}

/** Reads a streamed body event by event; `next(n)` waits for n more events. */
export function eventReader(body: HttpBody): { next(count?: number): Promise<SseEvent[]>; rest(): Promise<SseEvent[]>; retry(): number | undefined } {
  if (body.type !== 'stream') throw new Error(`expected an SSE stream, got ${body.type}`);
  const iterator = body.stream[Symbol.asyncIterator]();
  const reader = new SseReader();
  const ready: SseEvent[] = [];
  async function pull(): Promise<boolean> {
    const { value, done } = await iterator.next();
    if (done) return false;
    for (const item of reader.push(value)) if (item.type === 'event') ready.push(item.event);
    return true;
  }
  return {
    async next(count = 1) {
      while (ready.length < count) if (!(await pull())) throw new Error(`stream ended with ${ready.length} of ${count} events`);
      return ready.splice(0, count);
    },
    async rest() {
      while (await pull());
      return ready.splice(0);
    },
    retry: () => reader.retry,
  };
}

export function messageOf(event: SseEvent): JsonRpcMessage {
  return JSON.parse(event.data) as JsonRpcMessage;
}
