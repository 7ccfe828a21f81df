// The listeners of one kind of news (a tap line, a close): `add` returns the way to stop
// listening, `emit` calls each listener with the value. It calls them from a copy, so a listener
// may stop listening, or add another, while it is being called. Shared by every LineChannel.

import type { Unsubscribe } from '../protocol/transport.ts';

export type Call<T> = (listener: (value: T) => void, value: T) => void;

const callDirectly = <T>(listener: (value: T) => void, value: T): void => listener(value);

export class ListenerSet<T> {
  private readonly listeners = new Set<(value: T) => void>();

  /** Bound, so it can be handed out as a channel's `onLine` / `onClose` as it is. */
  readonly add = (listener: (value: T) => void): Unsubscribe => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Calls every listener with `value`; `call` decides how (for example, catching what one throws). */
  emit(value: T, call: Call<T> = callDirectly): void {
    for (const listener of [...this.listeners]) call(listener, value);
  }

  clear(): void {
    this.listeners.clear();
  }

  get size(): number {
    return this.listeners.size;
  }
}
