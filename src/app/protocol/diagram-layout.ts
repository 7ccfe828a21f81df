// Where everything in the sequence diagram goes: three lanes (client, stdio pipe, server), one row
// per arrow or note in the order they happened, a band per step. Pure geometry in SVG units, so
// it can be tested without a browser; SequenceDiagram.tsx only draws what this returns.

import type { WireDirection } from '../../protocol/inspect/byte-stream.ts';
import type { ArrowKind, Lane, StepRecord } from './stepper-records.ts';
import type { WaitingFor } from './stepper-types.ts';

export const LANES: readonly Lane[] = ['client', 'pipe', 'server'];

export type DiagramRowInput =
  | { type: 'arrow'; key: string; step: number; seq: number; direction: WireDirection; kind: ArrowKind }
  | { type: 'note'; key: string; step: number; seq: number; lane: Lane }
  /** The step in progress has drawn nothing yet: a placeholder where it waits. */
  | { type: 'waiting'; key: string; step: number; lane: Lane };

export interface DiagramOptions {
  width: number;
  /** Left margin holding the step numbers. */
  gutter: number;
  headerHeight: number;
  arrowRow: number;
  noteRow: number;
  /** Space between two steps' bands. */
  stepGap: number;
  /** Distance of the client and server lanes from the edges of the drawing area. */
  laneInset: number;
}

export const DEFAULT_DIAGRAM_OPTIONS: DiagramOptions = { width: 720, gutter: 34, headerHeight: 44, arrowRow: 44, noteRow: 28, stepGap: 6, laneInset: 78 };

export type LaidOutRow =
  | { type: 'arrow'; key: string; step: number; seq: number; y: number; from: Lane; to: Lane; x1: number; x2: number; labelX: number; labelY: number; detailY: number }
  | { type: 'note'; key: string; step: number; seq: number; y: number; lane: Lane; x: number; textX: number; anchor: 'start' | 'end' }
  | { type: 'waiting'; key: string; step: number; y: number; lane: Lane; x: number; textX: number; anchor: 'start' | 'end' };

export interface StepBand {
  step: number;
  top: number;
  bottom: number;
}

export interface DiagramLayout {
  width: number;
  height: number;
  options: DiagramOptions;
  laneX: Record<Lane, number>;
  rows: LaidOutRow[];
  bands: StepBand[];
}

/** Which lanes an arrow joins. EOF and the exit stop at the pipe: they close it, they carry no bytes. */
export function arrowEnds(direction: WireDirection, kind: ArrowKind): { from: Lane; to: Lane } {
  if (kind === 'eof') return { from: 'client', to: 'pipe' };
  if (kind === 'exit') return { from: 'server', to: 'pipe' };
  return direction === 'c2s' ? { from: 'client', to: 'server' } : { from: 'server', to: 'client' };
}

export function laneXs(options: DiagramOptions): Record<Lane, number> {
  const left = options.gutter + options.laneInset;
  const right = options.width - options.laneInset;
  return { client: left, pipe: Math.round((left + right) / 2), server: right };
}

export function layoutDiagram(rows: readonly DiagramRowInput[], overrides: Partial<DiagramOptions> = {}): DiagramLayout {
  const options = { ...DEFAULT_DIAGRAM_OPTIONS, ...overrides };
  const laneX = laneXs(options);
  const laidOut: LaidOutRow[] = [];
  const bands: StepBand[] = [];
  let y = options.headerHeight;

  for (const row of rows) {
    let band = bands[bands.length - 1];
    if (band === undefined || band.step !== row.step) {
      if (band !== undefined) y += options.stepGap;
      band = { step: row.step, top: y, bottom: y };
      bands.push(band);
    }
    const height = row.type === 'arrow' ? options.arrowRow : options.noteRow;
    const middle = y + height / 2;
    if (row.type === 'arrow') {
      const { from, to } = arrowEnds(row.direction, row.kind);
      const x1 = laneX[from];
      const x2 = laneX[to];
      // The label sits over the line's middle; the byte count under it.
      laidOut.push({ type: 'arrow', key: row.key, step: row.step, seq: row.seq, y: middle + 4, from, to, x1, x2, labelX: (x1 + x2) / 2, labelY: middle - 4, detailY: middle + 17 });
    } else {
      const x = laneX[row.lane];
      const anchor = row.lane === 'server' ? 'end' : 'start';
      const textX = anchor === 'end' ? x - 12 : x + 12;
      laidOut.push(row.type === 'note' ? { type: 'note', key: row.key, step: row.step, seq: row.seq, y: middle, lane: row.lane, x, textX, anchor } : { type: 'waiting', key: row.key, step: row.step, y: middle, lane: row.lane, x, textX, anchor });
    }
    y += height;
    band.bottom = y;
  }
  return { width: options.width, height: y + 12, options, laneX, rows: laidOut, bands };
}

/** Where a step that has drawn nothing yet is waiting. */
const WAITING_LANE: Record<WaitingFor, Lane> = { server: 'server', 'bytes-out': 'client', response: 'pipe', eof: 'client', exit: 'server', registry: 'client' };

/**
 * The diagram's rows for the shown records, arrows and notes in the order they happened. The step
 * in progress (if shown) gets a waiting row when it has drawn nothing yet.
 */
export function diagramRows(records: readonly StepRecord[], waiting: { step: number; waitingFor: WaitingFor } | null): DiagramRowInput[] {
  const rows: DiagramRowInput[] = [];
  for (const record of records) {
    const items = [
      ...record.arrows.map((arrow): DiagramRowInput => ({ type: 'arrow', key: `a${arrow.seq}`, step: record.index, seq: arrow.seq, direction: arrow.direction, kind: arrow.kind })),
      ...record.notes.map((note): DiagramRowInput => ({ type: 'note', key: `n${note.seq}`, step: record.index, seq: note.seq, lane: note.lane })),
    ].sort((a, b) => seqOf(a) - seqOf(b));
    rows.push(...items);
    if (items.length === 0 && waiting?.step === record.index) rows.push({ type: 'waiting', key: `w${record.index}`, step: record.index, lane: WAITING_LANE[waiting.waitingFor] });
  }
  return rows;
}

function seqOf(row: DiagramRowInput): number {
  return row.type === 'waiting' ? Infinity : row.seq;
}
