// The heart of every JSON-RPC client: a table of requests still waiting for their response, keyed
// by id. Responses may arrive in any order, so the id is the only thing that pairs them.

import { idKey, type JsonRpcId } from './jsonrpc.ts';
import { RequestTimeoutError } from './client-errors.ts';

/** What the UI's pending table shows about one request in flight. */
export interface PendingRequest {
  readonly id: JsonRpcId;
  readonly method: string;
  /** `Date.now()` when the request was filed. */
  readonly sentAt: number;
}

/** A request taken out of the table: whoever took it settles its promise. */
export interface Waiter extends PendingRequest {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Entry extends Waiter {
  timer: ReturnType<typeof setTimeout> | undefined;
}

// setTimeout stores its delay in a signed 32-bit integer; anything larger fires at once.
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

export class PendingRequests {
  // idKey, not the raw id: 1 and "1" are different requests, and 0 is an id like any other.
  private readonly entries = new Map<string, Entry>();
  /** Requests we stopped waiting for (timed out): their answers may still arrive, and that is no fault. */
  private readonly gaveUp = new Map<string, PendingRequest>();

  /**
   * File a request before its bytes are written: a fast (or synchronous) transport may answer
   * before write() even returns, and that answer must find its waiter.
   *
   * After `timeoutMs` (a finite, positive number; anything else means "wait forever") the entry is
   * removed, the promise rejects with RequestTimeoutError, and `onTimeout` runs, e.g. to tell the
   * server to stop working on it.
   */
  add(id: JsonRpcId, method: string, timeoutMs?: number, onTimeout?: (request: PendingRequest) => void): Promise<unknown> {
    const key = idKey(id);
    if (this.entries.has(key)) throw new Error(`Request id ${JSON.stringify(id)} is already waiting; ids must be unique per session.`);

    return new Promise<unknown>((resolve, reject) => {
      const entry: Entry = { id, method, sentAt: Date.now(), resolve, reject, timer: undefined };
      if (timeoutMs !== undefined && Number.isFinite(timeoutMs) && timeoutMs > 0) {
        entry.timer = setTimeout(() => {
          this.entries.delete(key);
          this.gaveUp.set(key, { id, method, sentAt: entry.sentAt });
          reject(new RequestTimeoutError(method, id, timeoutMs));
          onTimeout?.({ id, method, sentAt: entry.sentAt });
        }, Math.min(timeoutMs, MAX_TIMER_DELAY_MS));
      }
      this.entries.set(key, entry);
    });
  }

  /** Remove and return the waiter for `id`, or undefined when no request with that id is waiting. */
  take(id: JsonRpcId): Waiter | undefined {
    const key = idKey(id);
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    clearTimeout(entry.timer);
    return entry;
  }

  /**
   * The request `id` names if it timed out and has not been answered since: a late answer is the
   * race the specification expects (the server did not see the cancellation in time), so the
   * caller ignores it quietly. Returns it once; a second answer to the same id is not late but twice.
   */
  takeTimedOut(id: JsonRpcId): PendingRequest | undefined {
    const key = idKey(id);
    const request = this.gaveUp.get(key);
    this.gaveUp.delete(key);
    return request;
  }

  /** Reject every waiting request (the connection is gone) and empty the table. */
  rejectAll(makeError: (request: PendingRequest) => Error): void {
    const waiting = [...this.entries.values()];
    this.entries.clear();
    for (const entry of waiting) {
      clearTimeout(entry.timer);
      entry.reject(makeError(entry));
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** The requests in flight, oldest first, as plain data. */
  snapshot(): PendingRequest[] {
    return [...this.entries.values()].map(({ id, method, sentAt }) => ({ id, method, sentAt }));
  }
}
