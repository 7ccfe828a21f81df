// What an McpClient tells its observers, and the small fan-out it uses to tell them.

import type { JsonRpcMessage, JsonRpcNotification } from './jsonrpc.ts';
import type { Unsubscribe } from './transport.ts';
import type { ClientState } from './client-errors.ts';

export type ClientEvent =
  | { type: 'state'; from: ClientState; to: ClientState; cause: string }
  /** A frame written to the server's stdin, with its exact bytes. */
  | { type: 'sent'; message: JsonRpcMessage; bytes: Uint8Array }
  /** A valid message read from the server's stdout; offset and length locate its frame in the byte stream. */
  | { type: 'received'; message: JsonRpcMessage; offset: number; length: number }
  /** Something the server got wrong (unknown id, invalid message, unreadable frame): reported, never thrown. */
  | { type: 'protocol-error'; detail: string }
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
