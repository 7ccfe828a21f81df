// The part of a frame that has arrived so far, kept as the chunks it came in. Gluing chunks
// together on every push would copy the same bytes again and again (a 4 MiB message in 4 KiB
// chunks would copy ~2 GiB); holding them in a list and copying once, when the frame is
// complete, keeps the cost linear in the bytes received.

/**
 * Frames up to this size are assembled in one reusable buffer: for a 1 KiB message, allocating
 * a fresh array costs more than copying the bytes into it. Bigger frames get their own array.
 */
const SCRATCH_BYTES = 64 * 1024;

export class PendingBytes {
  private readonly parts: Uint8Array[] = [];
  private size = 0;
  private scratch: Uint8Array | null = null;

  /** Bytes held. */
  get length(): number {
    return this.size;
  }

  /**
   * Hold `part` until the frame completes. The bytes are not copied, so the caller must not
   * change a chunk after pushing it (stream chunks never are).
   */
  add(part: Uint8Array): void {
    this.parts.push(part);
    this.size += part.length;
  }

  /**
   * Everything held, followed by `tail`, as one array; then forget what was held. One copy at
   * most: when nothing is held, `tail` itself is returned. The result may live in the reusable
   * scratch buffer, so it is valid only until the next call: decode it straight away.
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
