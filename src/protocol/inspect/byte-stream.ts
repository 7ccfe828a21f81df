// One direction of the pipe as the client's side saw it: every byte in order, and where each
// chunk began. Append-only, so a frame's offsets stay valid for as long as the stream lives.

export type WireDirection = 'c2s' | 's2c';

export interface ChunkRecord {
  /** 0-based position among this stream's chunks. */
  index: number;
  /** Stream offset of the chunk's first byte. */
  offset: number;
  length: number;
  /** The tap's clock (ms since the tap started), when the host gave one. */
  t: number | null;
  /** The page's clock (performance.now()) when the bytes reached the page. */
  receivedAt: number;
}

const INITIAL_CAPACITY = 1024;

export class ByteStream {
  private buffer = new Uint8Array(INITIAL_CAPACITY);
  private size = 0;
  private readonly chunkList: ChunkRecord[] = [];

  constructor(readonly direction: WireDirection) {}

  get length(): number {
    return this.size;
  }

  get chunks(): readonly ChunkRecord[] {
    return this.chunkList;
  }

  append(bytes: Uint8Array, t: number | null, receivedAt: number): ChunkRecord {
    if (this.size + bytes.length > this.buffer.length) {
      const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.size + bytes.length));
      grown.set(this.buffer.subarray(0, this.size));
      this.buffer = grown;
    }
    this.buffer.set(bytes, this.size);
    const chunk: ChunkRecord = { index: this.chunkList.length, offset: this.size, length: bytes.length, t, receivedAt };
    this.chunkList.push(chunk);
    this.size += bytes.length;
    return chunk;
  }

  /** A copy of bytes [start, end): the buffer may be replaced as the stream grows. */
  slice(start: number, end: number): Uint8Array {
    return this.buffer.slice(Math.max(0, start), Math.min(end, this.size));
  }

  chunkBytes(chunk: ChunkRecord): Uint8Array {
    return this.slice(chunk.offset, chunk.offset + chunk.length);
  }
}
