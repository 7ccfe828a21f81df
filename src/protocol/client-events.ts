// What an McpClient tells its observers, and the small fan-out it uses to tell them.

import type { JsonRpcId, JsonRpcMessage, JsonRpcNotification } from './jsonrpc.ts';
import type { Unsubscribe } from './transport.ts';
import type { ClientState } from './client-errors.ts';

export type ClientEvent =
  | { type: 'state'; from: ClientState; to: ClientState; cause: string }
  /** A frame written to the server's stdin, with its exact bytes. */
  | { type: 'sent'; message: JsonRpcMessage; bytes: Uint8Array }
  /** A valid message read from the server's stdout; offset and length locate its frame in the byte stream. */
  | { type: 'received'; message: JsonRpcMessage; offset: number; length: number }
  /** Something the server got wrong (an id never sent or answered twice, an invalid message, an unreadable frame): reported, never thrown. */
  | { type: 'protocol-error'; detail: string }
  /**
   * The answer to a request that had already timed out. Not the server's fault: it may not have
   * seen the cancellation in time. The specification says to ignore it; this event only lets a UI show it.
   */
  | { type: 'late-response'; id: JsonRpcId; method: string }
  | { type: 'notification'; message: JsonRpcNotification };

export class Listeners<Event> {
  private readonly listeners = new Set<(event: Event) => void>();

  add(listener: (event: Event) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  emit(event: Event): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        // A broken observer (say, a UI bug) must not break the protocol; rethrow where it is still seen.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
