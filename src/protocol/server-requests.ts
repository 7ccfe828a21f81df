// Server → client requests (sampling/createMessage, elicitation/create, roots/list) answered by the
// client program, without changing McpClient (the exercise-3 reference, which answers only ping).
// A ByteTransport wrapper sits between the client and its transport: it declares the matching
// capabilities in the client's initialize request, answers the server's requests for those
// methods itself, and passes every other message through unchanged.

import { getFraming } from './framing/index.ts';
import type { FramingName } from './framing/types.ts';
import { encodeError, encodeResult, ErrorCode, isRequest, validateMessage, type JsonRpcMessage } from './jsonrpc.ts';
import type { ByteTransport, Unsubscribe } from './transport.ts';

export type ServerRequestHandler = (params: Record<string, unknown>) => unknown;

export interface ServerRequestHandlers {
  /** Each handled method with the capability it needs declared, e.g. elicitation/create → elicitation. */
  handlers: Readonly<Record<string, { capability: string; handle: ServerRequestHandler }>>;
  framing: FramingName;
}

export function answerServerRequests(inner: ByteTransport, options: ServerRequestHandlers): ByteTransport {
  const framing = getFraming(options.framing);
  const outgoing = framing.createReader();
  const incoming = framing.createReader();
  const capabilities = Object.fromEntries(Object.values(options.handlers).map(({ capability }) => [capability, {}]));
  const listeners = new Set<(chunk: Uint8Array) => void>();

  const answer = async (id: string | number, method: string, params: unknown): Promise<void> => {
    let response: JsonRpcMessage;
    try {
      const result = await options.handlers[method]!.handle(typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {});
      response = encodeResult(id, result);
    } catch (error) {
      response = encodeError(id, ErrorCode.InternalError, error instanceof Error ? error.message : String(error));
    }
    inner.write(framing.encode(response));
  };

  inner.onData((chunk) => {
    for (const item of incoming.push(chunk)) {
      if (item.type === 'message') {
        const outcome = validateMessage(item.value);
        if (outcome.ok && isRequest(outcome.message) && outcome.message.method in options.handlers) {
          void answer(outcome.message.id, outcome.message.method, outcome.message.params);
          continue;
        }
        const bytes = framing.encode(item.value);
        for (const listener of listeners) listener(bytes);
      }
      // Unreadable frames are dropped here; the transport below already reported them.
    }
  });

  return {
    write(bytes) {
      for (const item of outgoing.push(bytes)) {
        if (item.type !== 'message') continue;
        inner.write(framing.encode(declareCapabilities(item.value, capabilities)));
      }
    },
    end: () => inner.end(),
    onData(listener): Unsubscribe {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onClose: (listener) => inner.onClose(listener),
  };
}

/** The client's initialize request, with the capabilities this wrapper answers for added. */
function declareCapabilities(value: unknown, capabilities: Record<string, unknown>): unknown {
  const outcome = validateMessage(value);
  if (!outcome.ok || !isRequest(outcome.message) || outcome.message.method !== 'initialize') return value;
  const params = (outcome.message.params ?? {}) as Record<string, unknown>;
  const declared = typeof params.capabilities === 'object' && params.capabilities !== null ? params.capabilities : {};
  return { ...outcome.message, params: { ...params, capabilities: { ...declared, ...capabilities } } };
}

/**
 * An elicitation answer a test client can give without a person: accept, with each field's
 * `default` from the requested schema (SEP-1034), which is what the conformance suite checks.
 */
export function acceptWithDefaults(params: Record<string, unknown>): { action: 'accept'; content: Record<string, unknown> } {
  const schema = params.requestedSchema as { properties?: Record<string, { default?: unknown }> } | undefined;
  const content: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (property !== null && typeof property === 'object' && 'default' in property) content[name] = property.default;
  }
  return { action: 'accept', content };
}
