// Inside the learner worker: the HttpExchange handed to the learner's exercise-6 HttpClientTransport.
// The worker has no network (hidden fetch/WebSocket, and its CSP's connect-src 'none'), so each
// request goes to the page as plain data; the page speaks HTTP/1.1 for it over the live wire's
// relayed connection (the bytes the inspector shows) and sends the response back the same way:
// the head, the body chunk by chunk as it arrived, the end. A response the learner cancels is
// cancelled on the page too (its connection closes).

import { PushStream } from '../protocol/http/push-stream.ts';
import type { HttpClientRequest, HttpClientResponse, HttpExchange } from '../protocol/http/types.ts';
import type { LearnerToPage, PageToLearner } from './learner-worker-messages.ts';

type ExchangeMessage = Extract<PageToLearner, { type: 'http-head' | 'http-failed' | 'http-body' | 'http-end' }>;

export interface ProxiedExchange {
  exchange: HttpExchange;
  /** One answer from the page. */
  handle(message: ExchangeMessage): void;
  /** The session is over: pending requests fail, open bodies end. */
  close(reason: string): void;
}

export function proxiedExchange(post: (message: LearnerToPage) => void): ProxiedExchange {
  let nextReqId = 1;
  const heads = new Map<number, { resolve(response: HttpClientResponse): void; reject(error: Error): void }>();
  const bodies = new Map<number, PushStream>();

  const exchange: HttpExchange = (request) =>
    new Promise((resolve, reject) => {
      const reqId = nextReqId++;
      heads.set(reqId, { resolve, reject });
      post({ type: 'http-request', reqId, request: plainRequest(request) });
    });

  return {
    exchange,
    handle(message) {
      switch (message.type) {
        case 'http-head': {
          const waiter = heads.get(message.reqId);
          heads.delete(message.reqId);
          if (waiter === undefined) return;
          const body = new PushStream();
          bodies.set(message.reqId, body);
          body.onCancel(() => {
            bodies.delete(message.reqId);
            post({ type: 'http-cancel', reqId: message.reqId });
          });
          waiter.resolve({ status: message.status, headers: { ...message.headers }, body, cancel: () => body.cancel() });
          return;
        }
        case 'http-failed': {
          const waiter = heads.get(message.reqId);
          heads.delete(message.reqId);
          waiter?.reject(new Error(message.error));
          return;
        }
        case 'http-body':
          bodies.get(message.reqId)?.write(message.bytes);
          return;
        case 'http-end':
          bodies.get(message.reqId)?.end();
          bodies.delete(message.reqId);
          return;
      }
    },
    close(reason) {
      for (const waiter of heads.values()) waiter.reject(new Error(reason));
      heads.clear();
      for (const body of bodies.values()) body.end();
      bodies.clear();
    },
  };
}

/** Only plain data crosses: what the learner's code put in the request, checked for shape. */
function plainRequest(request: HttpClientRequest): HttpClientRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request?.headers ?? {})) if (typeof value === 'string') headers[name] = value;
  const body = request?.body instanceof Uint8Array ? request.body.slice() : undefined;
  return { method: request?.method, url: String(request?.url), headers, ...(body ? { body } : {}) };
}
