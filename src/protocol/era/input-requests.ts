// The client's side of Multi Round-Trip Requests (basic/patterns/mrtr.mdx). In the 2026-07-28
// revision a server no longer sends elicitation/create, sampling/createMessage or roots/list as
// requests of its own: it answers tools/call, resources/read or prompts/get with an
// InputRequiredResult whose `inputRequests` map names what it needs, and the client retries the
// same request with `inputResponses` (same keys) and the exact `requestState` it was given.
//
// The caller supplies one handler per kind of input, the way an SDK client registers its
// elicitation or sampling handler; the same handlers answer a legacy server's requests.

import { InputRequiredError } from './era-errors.ts';

export type InputHandler = (params: Record<string, unknown>) => unknown;

/** The three kinds of input a server may ask for, each with the client capability it needs. */
export const INPUT_METHODS = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
} as const;
export type InputMethod = keyof typeof INPUT_METHODS;
export type InputHandlers = Partial<Record<InputMethod, InputHandler>>;

/** The capabilities to declare: exactly the kinds of input there is a handler for (servers MUST NOT ask for others). */
export function capabilitiesFor(handlers: InputHandlers): Record<string, Record<string, never>> {
  const capabilities: Record<string, Record<string, never>> = {};
  for (const method of Object.keys(handlers) as InputMethod[]) {
    if (handlers[method] !== undefined) capabilities[INPUT_METHODS[method]] = {};
  }
  return capabilities;
}

/** The fields a retry adds to the original params: answers, and the server's state echoed back. */
export interface RetryFields {
  inputResponses?: Record<string, unknown>;
  requestState?: string;
}

/**
 * Answer every embedded request of an InputRequiredResult and build the retry's extra fields.
 * `requestState` is copied byte for byte when present and left out when absent (the spec says
 * both); the client never looks inside it.
 */
export async function answerInputRequests(method: string, result: Record<string, unknown>, handlers: InputHandlers): Promise<RetryFields> {
  const fields: RetryFields = {};
  const requests = result.inputRequests;
  if (requests !== undefined) {
    if (!isObject(requests)) throw new InputRequiredError(method, '"inputRequests" is not an object', result);
    const responses: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(requests)) {
      const kind = isObject(request) ? request.method : undefined;
      const handler = typeof kind === 'string' && kind in INPUT_METHODS ? handlers[kind as InputMethod] : undefined;
      if (handler === undefined) throw new InputRequiredError(method, `no handler for input request "${key}" (${String(kind)})`, result);
      const params = isObject(request) && isObject(request.params) ? request.params : {};
      responses[key] = await handler(params);
    }
    fields.inputResponses = responses;
  }
  if (typeof result.requestState === 'string') fields.requestState = result.requestState;
  return fields;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
