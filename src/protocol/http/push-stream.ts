// A byte stream written by one side and read with `for await` by the other: the body of an SSE
// response. Writes never wait for the reader; what is not read yet is queued. When the reader
// cancels (its connection closed), later writes are dropped and the writer is told once.

import type { ByteStream } from './types.ts';

export class PushStream implements ByteStream {
  private readonly queue: Uint8Array[] = [];
  private waiting: ((result: IteratorResult<Uint8Array>) => void) | null = null;
  private ended = false;
  private cancelled = false;
  private readonly cancelListeners: (() => void)[] = [];

  /** False once ended or cancelled: nothing written now would reach anyone. */
  get open(): boolean {
    return !this.ended && !this.cancelled;
  }

  write(chunk: Uint8Array): void {
    if (!this.open) return;
    if (this.waiting !== null) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: chunk, done: false });
    } else {
      this.queue.push(chunk);
    }
  }

  /** No more chunks: the reader finishes after what is queued. */
  end(): void {
    if (!this.open) return;
    this.ended = true;
    this.wake();
  }

  cancel(): void {
    if (this.cancelled || this.ended) return;
    this.cancelled = true;
    this.queue.length = 0;
    this.wake();
    for (const listener of this.cancelListeners.splice(0)) listener();
  }

  /** Called once if the reader cancels before the stream ended. */
  onCancel(listener: () => void): void {
    this.cancelListeners.push(listener);
  }

  private wake(): void {
    if (this.waiting === null) return;
    const resolve = this.waiting;
    this.waiting = null;
    resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return {
      next: () => {
        const chunk = this.queue.shift();
        if (chunk !== undefined) return Promise.resolve({ value: chunk, done: false });
        if (!this.open) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          this.waiting = resolve;
        });
      },
      return: () => {
        this.cancel();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
