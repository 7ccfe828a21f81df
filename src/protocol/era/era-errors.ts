// How the dual-era client fails, beside McpClient's own errors (client-errors.ts): every class
// extends McpClientError, so `instanceof McpClientError` still catches anything a client rejects with.

import { McpClientError } from '../client-errors.ts';

/** Finding the server's era failed: no modern answer the client can use, and no way back to the handshake. */
export class EraNegotiationError extends McpClientError {
  override name = 'EraNegotiationError';
  constructor(readonly detail: string) {
    super(`Version negotiation failed: ${detail}.`);
  }
}

/**
 * The server asked for input (an InputRequiredResult) the client cannot give: no handler for one of
 * the embedded requests, or more rounds than the client allows.
 */
export class InputRequiredError extends McpClientError {
  override name = 'InputRequiredError';
  constructor(
    readonly method: string,
    detail: string,
    /** The InputRequiredResult as the server sent it. */
    readonly result: Record<string, unknown>,
  ) {
    super(`${method} needs input the client cannot give: ${detail}.`);
  }
}
