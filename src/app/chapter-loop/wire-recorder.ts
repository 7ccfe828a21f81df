// Every frame of the Chapter loop's connection, as the tap saw it: both directions kept as byte
// streams and read with the reference reader, each frame an Arrow (the stepper's type) with its
// place in the stream, so the sequence diagram can draw it and the byte inspector can open it.
// Unlike the stepper nothing is held back: the client reads as fast as bytes arrive.

import { getFraming } from '../../protocol/framing/index.ts';
import type { FrameReader, FramingName } from '../../protocol/framing/types.ts';
import { idKey } from '../../protocol/jsonrpc.ts';
import { tapEventBytes, type TapEvent } from '../../runtime/tap-protocol.ts';
import { ByteStream, type WireDirection } from '../../protocol/inspect/byte-stream.ts';
import { targetFromStream, type InspectTarget } from '../protocol/inspect-target.ts';
import { describeItem, type Arrow } from '../protocol/stepper-records.ts';

export class WireRecorder {
  readonly streams: Record<WireDirection, ByteStream> = { c2s: new ByteStream('c2s'), s2c: new ByteStream('s2c') };
  private readonly readers: Record<WireDirection, FrameReader>;
  private readonly requests = new Map<string, string>();
  private readonly list: Arrow[] = [];

  constructor(
    readonly framing: FramingName,
    private readonly onArrow: (arrow: Arrow) => void = () => {},
    private readonly now: () => number = () => Date.now(),
  ) {
    const impl = getFraming(framing);
    this.readers = { c2s: impl.createReader(), s2c: impl.createReader() };
  }

  get arrows(): readonly Arrow[] {
    return this.list;
  }

  /** Feed one tap event; the frames it completed become arrows. */
  record(event: TapEvent): void {
    if (event.ev === 'exit') {
      this.push({ kind: 'exit', direction: 's2c', method: null, id: null, value: null, detail: event.signal ? `signal ${event.signal}` : `code ${String(event.code)}`, frame: null, chunks: [], t: event.t, arrivedAt: this.now(), aroundClient: false, exit: { code: event.code, signal: event.signal } });
      return;
    }
    if (event.ev !== 'c2s' && event.ev !== 's2c') return;
    const direction: WireDirection = event.ev;
    const bytes = tapEventBytes(event);
    const stream = this.streams[direction];
    stream.append(bytes, event.t, this.now());
    for (const item of this.readers[direction].push(bytes)) {
      const described = describeItem(item, this.requests);
      if (direction === 'c2s' && described.kind === 'request' && described.id !== null && described.method !== null) this.requests.set(idKey(described.id), described.method);
      const chunks = stream.chunks.filter((chunk) => chunk.offset < item.offset + item.length && chunk.offset + chunk.length > item.offset).map((chunk) => chunk.index);
      this.push({ ...described, direction, frame: { offset: item.offset, length: item.length }, chunks, t: event.t, arrivedAt: this.now(), aroundClient: false, exit: null });
    }
  }

  /** The byte inspector's view of an arrow's frame; null for arrows without bytes. */
  target(arrow: Arrow): InspectTarget | null {
    if (arrow.frame === null) return null;
    return targetFromStream(this.streams[arrow.direction], this.framing, { ...arrow.frame, kind: arrow.kind, method: arrow.method, id: arrow.id, value: arrow.value, problem: arrow.detail });
  }

  private push(arrow: Omit<Arrow, 'seq' | 'drawnAt'>): void {
    const full: Arrow = { ...arrow, seq: this.list.length, drawnAt: this.now() };
    this.list.push(full);
    this.onArrow(full);
  }
}
