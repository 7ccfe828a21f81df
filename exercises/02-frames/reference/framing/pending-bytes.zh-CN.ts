// 一帧里到目前为止已经到达的部分，按它到达时的字节块保存。每次推入都把字节块拼接起来，
// 会一遍又一遍地复制同样的字节（一条 4 MiB 的消息按 4 KiB 的字节块到达，要复制约 2 GiB）；
// 把它们放在一个列表里，等帧完整时只复制一次，开销就与收到的字节数成线性关系。

/**
 * 不超过这个大小的帧在一个可复用的缓冲区里拼装：对一条 1 KiB 的消息来说，
 * 新分配一个数组比把字节复制进去还贵。更大的帧用自己的数组。
 */
const SCRATCH_BYTES = 64 * 1024;

export class PendingBytes {
  private readonly parts: Uint8Array[] = [];
  private size = 0;
  private scratch: Uint8Array | null = null;

  /** 保存的字节数。 */
  get length(): number {
    return this.size;
  }

  /**
   * 保存 `part`，直到这一帧完整。字节不会被复制，所以调用方在推入一个字节块之后不能再改它
   * （流里的字节块从来不会被改）。
   */
  add(part: Uint8Array): void {
    this.parts.push(part);
    this.size += part.length;
  }

  /**
   * 把保存的全部字节，后面接上 `tail`，作为一个数组返回；然后忘掉保存的内容。最多复制一次：
   * 没有保存任何字节时，直接返回 `tail` 本身。结果可能位于可复用的临时缓冲区里，
   * 所以它只在下一次调用之前有效：请立即解码。
   */
  takeWith(tail: Uint8Array): Uint8Array {
    if (this.size === 0) return tail;
    const total = this.size + tail.length;
    const whole = total <= SCRATCH_BYTES ? (this.scratch ??= new Uint8Array(SCRATCH_BYTES)).subarray(0, total) : new Uint8Array(total);
    let at = 0;
    for (const part of this.parts) {
      whole.set(part, at);
      at += part.length;
    }
    whole.set(tail, at);
    this.clear();
    return whole;
  }

  clear(): void {
    this.parts.length = 0;
    this.size = 0;
  }
}
