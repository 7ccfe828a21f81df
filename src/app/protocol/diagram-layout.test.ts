import { describe, expect, it } from 'vitest';
import { DEFAULT_DIAGRAM_OPTIONS, arrowEnds, diagramRows, laneXs, layoutDiagram, type DiagramRowInput } from './diagram-layout.ts';
import type { Arrow, Note, StepRecord } from './stepper-records.ts';

const arrow = (seq: number, direction: 'c2s' | 's2c', kind: Arrow['kind'] = 'request'): Arrow => ({
  seq, direction, kind, method: 'initialize', id: 0, value: null, detail: null, frame: { offset: 0, length: 10 }, chunks: [0], t: 1, arrivedAt: 1, drawnAt: 2, aroundClient: false, exit: null,
});
const note = (seq: number, lane: Note['lane']): Note => ({ seq, lane, severity: 'error', kind: 'threw', who: 'learner', detail: 'x', error: null, drawnAt: 3 });
const record = (index: number, arrows: Arrow[], notes: Note[] = []): StepRecord => ({
  index, step: { kind: 'receive' }, outcome: 'ok', arrows, notes, clientState: 'new', transition: null, pending: [], registry: null, heldBytes: 0,
});

describe('laneXs', () => {
  it('puts the pipe halfway between the client and the server', () => {
    const x = laneXs(DEFAULT_DIAGRAM_OPTIONS);
    expect(x.client).toBeLessThan(x.pipe);
    expect(x.pipe).toBeLessThan(x.server);
    expect(x.pipe - x.client).toBe(x.server - x.pipe);
  });
});

describe('arrowEnds', () => {
  it('sends requests right, responses left, and stops EOF and the exit at the pipe', () => {
    expect(arrowEnds('c2s', 'request')).toEqual({ from: 'client', to: 'server' });
    expect(arrowEnds('s2c', 'response')).toEqual({ from: 'server', to: 'client' });
    expect(arrowEnds('c2s', 'eof')).toEqual({ from: 'client', to: 'pipe' });
    expect(arrowEnds('s2c', 'exit')).toEqual({ from: 'server', to: 'pipe' });
  });
});

describe('diagramRows', () => {
  it('lists arrows and notes in the order they happened, step by step', () => {
    const rows = diagramRows([record(0, [arrow(0, 'c2s')]), record(1, [arrow(2, 's2c', 'response')], [note(1, 'client')])], null);
    expect(rows.map((row) => row.key)).toEqual(['a0', 'n1', 'a2']);
    expect(rows.map((row) => row.step)).toEqual([0, 1, 1]);
  });

  it('shows where a step that drew nothing yet is waiting', () => {
    const rows = diagramRows([record(0, [arrow(0, 'c2s')]), record(1, [])], { step: 1, waitingFor: 'response' });
    expect(rows.at(-1)).toEqual({ type: 'waiting', key: 'w1', step: 1, lane: 'pipe' });
    expect(diagramRows([record(1, [])], null)).toEqual([]);
  });
});

describe('layoutDiagram', () => {
  const rows: DiagramRowInput[] = [
    { type: 'arrow', key: 'a0', step: 0, seq: 0, direction: 'c2s', kind: 'request' },
    { type: 'arrow', key: 'a1', step: 1, seq: 1, direction: 's2c', kind: 'response' },
    { type: 'note', key: 'n2', step: 1, seq: 2, lane: 'server' },
  ];
  const layout = layoutDiagram(rows);
  const x = layout.laneX;

  it('draws each row below the one before, with a gap between steps', () => {
    const ys = layout.rows.map((row) => row.y);
    expect(ys[0]).toBeGreaterThan(DEFAULT_DIAGRAM_OPTIONS.headerHeight);
    expect(ys[1]! - ys[0]!).toBe(DEFAULT_DIAGRAM_OPTIONS.arrowRow + DEFAULT_DIAGRAM_OPTIONS.stepGap);
    expect(layout.bands).toEqual([
      { step: 0, top: 44, bottom: 88 },
      { step: 1, top: 94, bottom: 94 + 44 + 28 },
    ]);
    expect(layout.height).toBe(94 + 44 + 28 + 12);
  });

  it('runs arrows between the right lanes, label centred above the line', () => {
    expect(layout.rows[0]).toMatchObject({ x1: x.client, x2: x.server, labelX: (x.client + x.server) / 2 });
    expect(layout.rows[1]).toMatchObject({ x1: x.server, x2: x.client });
    const first = layout.rows[0]!;
    expect(first.type === 'arrow' && first.labelY < first.y && first.detailY > first.y).toBe(true);
  });

  it('writes a server note to the left of its lane, so it stays inside the drawing', () => {
    expect(layout.rows[2]).toMatchObject({ type: 'note', x: x.server, anchor: 'end', textX: x.server - 12 });
  });

  it('is only the header for no rows', () => {
    expect(layoutDiagram([])).toMatchObject({ rows: [], bands: [], height: DEFAULT_DIAGRAM_OPTIONS.headerHeight + 12 });
  });
});
