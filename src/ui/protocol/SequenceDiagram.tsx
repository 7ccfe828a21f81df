// The conversation as a sequence diagram drawn from the stepper's records: lanes for the client,
// the stdio pipe and the server; one arrow per frame (drawn once its bytes arrived), notes where
// something went wrong. Arrows that carry bytes open the byte inspector.

import { memo, useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { arrowDetail, arrowLabel, clip, noteText } from '../../app/protocol/arrow-text.ts';
import { diagramRows, layoutDiagram, LANES } from '../../app/protocol/diagram-layout.ts';
import type { Note, StepRecord } from '../../app/protocol/stepper-records.ts';
import type { WaitingFor } from '../../app/protocol/stepper-types.ts';
import { useProtocolText } from './use-protocol-text.ts';

export interface SequenceDiagramProps {
  records: readonly StepRecord[];
  waiting: { step: number; waitingFor: WaitingFor } | null;
  /** Index of the step shown last (lit). */
  currentStep: number | null;
  focus: { seq: number; at: number } | null;
  onInspect?: (seq: number) => void;
  labelId?: string;
}

const NOTE_CHARS = 74;

export const SequenceDiagram = memo(function SequenceDiagram({ records, waiting, currentStep, focus, onInspect, labelId }: SequenceDiagramProps) {
  const t = useProtocolText();
  const layout = useMemo(() => layoutDiagram(diagramRows(records, waiting)), [records, waiting]);
  const arrows = useMemo(() => new Map(records.flatMap((record) => record.arrows).map((arrow) => [arrow.seq, arrow])), [records]);
  const notes = useMemo(() => new Map(records.flatMap((record) => record.notes).map((note) => [note.seq, note])), [records]);
  const svg = useRef<SVGSVGElement>(null);
  const { width, height, options, laneX } = layout;

  useEffect(() => {
    if (focus === null) return;
    const node = svg.current?.querySelector(`[data-seq="${focus.seq}"]`);
    if (node instanceof SVGElement) {
      node.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
      node.focus?.({ preventScroll: true });
    }
  }, [focus]);

  const activate = (event: KeyboardEvent, seq: number) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      event.stopPropagation();
      onInspect?.(seq);
    }
  };

  return (
    <svg
      ref={svg}
      className="sequence-diagram"
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="group"
      aria-labelledby={labelId}
      aria-label={labelId ? undefined : t('diagram.label')}
      data-testid="sequence-diagram"
    >
      <defs>
        {(['c2s', 's2c', 'error', 'muted'] as const).map((kind) => (
          <marker key={kind} id={`arrowhead-${kind}`} className={`arrowhead arrowhead--${kind}`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="11" markerHeight="11" markerUnits="userSpaceOnUse" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" />
          </marker>
        ))}
      </defs>
      {layout.bands.map((band) => (
        <g key={band.step} className={`step-band${band.step === currentStep ? ' is-current' : ''}`}>
          <rect x={0} y={band.top - 2} width={width} height={band.bottom - band.top + 4} rx={4} />
          <text x={options.gutter / 2} y={band.top + 16} textAnchor="middle" className="step-band__number">
            {band.step + 1}
          </text>
        </g>
      ))}
      {LANES.map((lane) => (
        <g key={lane} className={`lane lane--${lane}`}>
          <line x1={laneX[lane]} y1={options.headerHeight - 8} x2={laneX[lane]} y2={height - 4} className="lifeline" />
          <rect x={laneX[lane] - 52} y={6} width={104} height={26} rx={5} className="lane__box" />
          <text x={laneX[lane]} y={24} textAnchor="middle" className="lane__title">
            {t(`diagram.lanes.${lane}`)}
          </text>
        </g>
      ))}
      {layout.rows.length === 0 && (
        <text x={laneX.pipe} y={options.headerHeight + 24} textAnchor="middle" className="diagram-empty">
          {t('diagram.empty')}
        </text>
      )}
      {layout.rows.map((row) => {
        if (row.type === 'waiting') {
          return (
            <g key={row.key} className="waiting-row">
              <circle cx={row.x} cy={row.y} r={6} className="waiting-dot" />
              <text x={row.textX} y={row.y + 4} textAnchor={row.anchor}>
                {t('diagram.waiting')}
              </text>
            </g>
          );
        }
        if (row.type === 'note') {
          const note = notes.get(row.seq)!;
          return <NoteRow key={row.key} note={note} x={row.x} y={row.y} textX={row.textX} anchor={row.anchor} focused={focus?.seq === row.seq} text={noteText(t, note)} />;
        }
        const arrow = arrows.get(row.seq)!;
        const label = arrowLabel(t, arrow);
        const detail = arrowDetail(t, arrow);
        const inspectable = arrow.frame !== null && onInspect !== undefined;
        const tone = arrow.kind === 'unreadable' || arrow.kind === 'invalid' || arrow.kind === 'error-response' ? 'error' : arrow.kind === 'eof' || arrow.kind === 'exit' ? 'muted' : arrow.direction;
        return (
          <g
            key={row.key}
            className={`arrow arrow--${arrow.direction} arrow--${arrow.kind} tone--${tone}${inspectable ? ' is-inspectable' : ''}${focus?.seq === row.seq ? ' is-focused' : ''}`}
            data-seq={arrow.seq}
            data-kind={arrow.kind}
            data-step={row.step + 1}
            data-arrived-at={arrow.arrivedAt ?? ''}
            data-drawn-at={arrow.drawnAt}
            data-testid="diagram-arrow"
            role={inspectable ? 'button' : 'img'}
            tabIndex={inspectable ? 0 : undefined}
            aria-label={`${t(`diagram.directions.${arrow.direction}`)}: ${label}${detail ? `, ${detail}` : ''}`}
            onClick={inspectable ? () => onInspect(arrow.seq) : undefined}
            onKeyDown={inspectable ? (event) => activate(event, arrow.seq) : undefined}
          >
            <title>{inspectable ? t('diagram.inspect', { what: label }) : label}</title>
            <line x1={row.x1} y1={row.y} x2={row.x2} y2={row.y} className="arrow__hit" />
            <line x1={row.x1} y1={row.y} x2={row.x2} y2={row.y} className="arrow__line" markerEnd={`url(#arrowhead-${tone})`} />
            {arrow.kind === 'exit' && <path d={`M ${row.x1 - 6} ${row.y - 6} l 12 12 m 0 -12 l -12 12`} className="arrow__cross" />}
            <text x={row.labelX} y={row.labelY} textAnchor="middle" className="arrow__label">
              {clip(label, 56)}
              {/* A space, so assistive technology does not read the label and the detail as one word. */}{' '}
            </text>
            {detail && (
              <text x={row.labelX} y={row.detailY} textAnchor="middle" className="arrow__detail">
                {clip(detail, 64)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
});

function NoteRow({ note, x, y, textX, anchor, focused, text }: { note: Note; x: number; y: number; textX: number; anchor: 'start' | 'end'; focused: boolean; text: string }) {
  return (
    <g className={`note note--${note.severity} note--${note.kind}${focused ? ' is-focused' : ''}`} data-seq={note.seq} data-kind={note.kind} data-testid="diagram-note" role="img" aria-label={text} tabIndex={focused ? -1 : undefined}>
      <title>{text}</title>
      <circle cx={x} cy={y} r={8} />
      <text x={x} y={y + 4} textAnchor="middle" className="note__mark" aria-hidden="true">
        {note.severity === 'info' ? 'i' : '!'}
      </text>
      <text x={textX} y={y + 4} textAnchor={anchor} className="note__text">
        {clip(text, NOTE_CHARS)}
      </text>
    </g>
  );
}
