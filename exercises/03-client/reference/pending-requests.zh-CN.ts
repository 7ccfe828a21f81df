// 每个 JSON-RPC 客户端的核心：一张按 id 登记、仍在等待响应的请求表。
// 响应可能以任意顺序到达，所以 id 是把它们配对起来的唯一依据。

import { idKey, type JsonRpcId } from './jsonrpc.ts';
import { RequestTimeoutError } from './client-errors.ts';

/** 界面上的待响应表对一个进行中的请求展示的内容。 */
export interface PendingRequest {
  readonly id: JsonRpcId;
  readonly method: string;
  /** 登记该请求时的 `Date.now()`。 */
  readonly sentAt: number;
}

/** 从表中取出的一个请求：谁取出它，谁就负责了结它的 promise。 */
export interface Waiter extends PendingRequest {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Entry extends Waiter {
  timer: ReturnType<typeof setTimeout> | undefined;
}

// setTimeout 用一个有符号 32 位整数保存延迟；更大的值会立即触发。
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

export class PendingRequests {
  // 用 idKey 而不是原始 id：1 和 "1" 是不同的请求，0 和其他 id 一样是普通的 id。
  private readonly entries = new Map<string, Entry>();
  /** 我们不再等待的请求（已超时）：它们的回答仍可能到达，这不算错。 */
  private readonly gaveUp = new Map<string, PendingRequest>();

  /**
   * 在请求的字节写出之前登记它：一个快的（或同步的）传输可能在 write() 返回之前就回答了，
   * 而那个回答必须找得到它的等待者。
   *
   * `timeoutMs`（一个有限的正数；其他任何值都表示“永远等待”）之后，这一行被移除，promise 以
   * RequestTimeoutError reject，并运行 `onTimeout`，例如用来通知服务器停止处理它。
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

  /** 移除并返回 `id` 对应的等待者；没有这个 id 的请求在等待时返回 undefined。 */
  take(id: JsonRpcId): Waiter | undefined {
    const key = idKey(id);
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    clearTimeout(entry.timer);
    return entry;
  }

  /**
   * 如果 `id` 对应的请求已经超时、此后也没被回答过，就返回它：迟到的回答是规范预料之中的竞争
   * （服务器没有及时看到取消通知），所以调用方悄悄忽略它。只返回一次；同一个 id 的第二个回答
   * 就不是迟到，而是重复了。
   */
  takeTimedOut(id: JsonRpcId): PendingRequest | undefined {
    const key = idKey(id);
    const request = this.gaveUp.get(key);
    this.gaveUp.delete(key);
    return request;
  }

  /** reject 所有等待中的请求（连接已经断开），并清空这张表。 */
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

  /** 进行中的请求，最早的在前，作为普通数据。 */
  snapshot(): PendingRequest[] {
    return [...this.entries.values()].map(({ id, method, sentAt }) => ({ id, method, sentAt }));
  }
}
