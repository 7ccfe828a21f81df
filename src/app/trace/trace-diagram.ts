// A read-only sequence diagram of a recorded session: the frames of the log as the protocol view's
// arrows, a page at a time (an SVG of a hundred thousand arrows would freeze any browser). Each
// arrow remembers the log frame it came from, so it opens the byte inspector like a log row does.

import type { LogEntry } from '../live-session/message-log.ts';
import type { Arrow, StepRecord } from '../protocol/stepper-records.ts';
import type { FrameRef } from '../live-session/log-find.ts';
import { LazyBytesEntry } from './packed-entries.ts';

export const DIAGRAM_PAGE = 60;

export interface DiagramPage {
  records: StepRecord[];
  /** Arrow seq → the log frame it draws. */
  frames: Map<number, FrameRef>;
  /** Arrows in the whole log (frames and exits), for the pager. */
  total: number;
  /** Index of the first arrow shown. */
  start: number;
  shown: number;
}

/** Arrows `start` .. `start + size` of the whole log, as one record the SequenceDiagram draws. */
export function diagramPage(entries: readonly LogEntry[], start: number, size = DIAGRAM_PAGE): DiagramPage {
  const arrows: Arrow[] = [];
  const frames = new Map<number, FrameRef>();
  const offsets = { c2s: 0, s2c: 0 };
  let index = 0;
  const wanted = (at: number) => at >= start && at < start + size;
  for (const entry of entries) {
    if (entry.type === 'bytes') {
      const first = index;
      index += entry.frames.length;
      const streamEnd = offsets[entry.direction] + chunkLength(entry);
      offsets[entry.direction] = streamEnd;
      // Most entries of a long trace are outside the page: count their frames and move on.
      if (first + entry.frames.length <= start || first >= start + size) continue;
      // Where each frame sits in its direction's stream: frames end where the next begins, the last
      // where the reader's held bytes begin (the same arithmetic as the log's inspector).
      const ends: number[] = [];
      let end = streamEnd - entry.bufferedBytes;
      for (let i = entry.frames.length - 1; i >= 0; i--) {
        ends[i] = end;
        end -= entry.frames[i]!.length;
      }
      entry.frames.forEach((frame, frameIndex) => {
        const at = first + frameIndex;
        if (!wanted(at)) return;
        const seq = arrows.length;
        frames.set(seq, { seq: entry.seq, frameIndex });
        const message = frame.type === 'message';
        arrows.push({
          seq,
          direction: entry.direction,
          kind: message ? frame.kind : 'unreadable',
          method: message ? frame.method : null,
          id: message ? frame.id : null,
          value: message ? frame.value : null,
          detail: message ? frame.invalidReason : `${frame.kind}: ${frame.detail}`,
          frame: { offset: Math.max(0, ends[frameIndex]! - frame.length), length: frame.length },
          chunks: [],
          t: entry.t,
          arrivedAt: null,
          drawnAt: 0,
          aroundClient: false,
          exit: null,
        });
      });
    } else if (entry.type === 'spawn') {
      offsets.c2s = 0;
      offsets.s2c = 0;
    } else if (entry.type === 'exit') {
      const at = index++;
      if (!wanted(at)) continue;
      arrows.push({
        seq: arrows.length,
        direction: 's2c',
        kind: 'exit',
        method: null,
        id: null,
        value: null,
        detail: null,
        frame: null,
        chunks: [],
        t: entry.t,
        arrivedAt: null,
        drawnAt: 0,
        aroundClient: false,
        exit: { code: entry.code, signal: entry.signal },
      });
    }
  }
  const record: StepRecord = {
    index: Math.floor(start / size),
    step: { kind: 'receive' },
    outcome: 'ok',
    arrows,
    notes: [],
    clientState: null,
    transition: null,
    pending: [],
    registry: null,
    heldBytes: 0,
  };
  return { records: arrows.length === 0 ? [] : [record], frames, total: index, start, shown: arrows.length };
}

// An opened trace's entries know their length without making a view of their bytes
// (packed-entries.ts): a page of the diagram walks every entry of a 100 MB trace.
function chunkLength(entry: Extract<LogEntry, { type: 'bytes' }>): number {
  return entry instanceof LazyBytesEntry ? entry.byteLength : entry.bytes.length;
}
