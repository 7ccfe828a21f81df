// The hex dump, hexyl-style: offset column, 16 bytes a row split 8 + 8, the text beside. Each
// byte is coloured by field AND underlined in that field's style (colour is never the only cue),
// multi-byte characters are boxed together, and chunk boundaries are marked where they fall.

import { memo, useId, useMemo, type KeyboardEvent, type MouseEvent } from 'react';
import type { FieldRange } from '../../protocol/inspect/byte-fields.ts';
import { fieldKindByByte } from '../../protocol/inspect/byte-fields.ts';
import type { ChunkSpan } from '../../protocol/inspect/chunk-replay.ts';
import { BYTES_PER_ROW, HALF_ROW, formatOffset, hexByte, hexRows, textCells } from '../../protocol/inspect/hex-rows.ts';
import { groupIndexByByte, type Utf8Group } from '../../protocol/inspect/utf8-groups.ts';

export interface HexViewProps {
  bytes: Uint8Array;
  fields: readonly FieldRange[];
  groups: readonly Utf8Group[];
  chunks?: readonly ChunkSpan[];
  highlight?: { start: number; end: number } | null;
  cursor?: number | null;
  label: string;
  /** The offset column's heading. */
  offsetLabel?: string;
  /** Where the cursor's description is, for aria-describedby. */
  describedBy?: string;
  chunkMarkerLabel?: (chunkNumber: number) => string;
  onHoverByte?: (index: number | null) => void;
  onCursor?: (index: number | null) => void;
}

export const HexView = memo(function HexView(props: HexViewProps) {
  const { bytes, fields, groups, chunks = [], highlight = null, cursor = null, onHoverByte, onCursor } = props;
  const headId = useId();
  const kinds = useMemo(() => fieldKindByByte(bytes.length, fields), [bytes, fields]);
  const byGroup = useMemo(() => groupIndexByByte(bytes.length, groups), [bytes, groups]);
  const texts = useMemo(() => textCells(bytes, groups), [bytes, groups]);
  const chunkStarts = useMemo(() => new Map(chunks.map((span) => [span.start, span.index + 1])), [chunks]);
  const rows = useMemo(() => hexRows(bytes.length), [bytes.length]);

  const classFor = (i: number): string => {
    const classes = ['hx', `f-${kinds[i] ?? 'junk'}`];
    const group = byGroup[i];
    if (group) {
      classes.push('u8');
      if (group.start === i) classes.push('u8-first');
      if (group.start + group.length - 1 === i) classes.push('u8-last');
    }
    if (chunkStarts.has(i)) classes.push('chunk-start');
    if (highlight && i >= highlight.start && i < highlight.end) classes.push('is-lit');
    if (cursor === i) classes.push('is-cursor');
    return classes.join(' ');
  };

  const indexOf = (event: MouseEvent): number | null => {
    const cell = (event.target as Element).closest?.('[data-i]');
    return cell ? Number(cell.getAttribute('data-i')) : null;
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (!onCursor || bytes.length === 0) return;
    const moves: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -BYTES_PER_ROW, ArrowDown: BYTES_PER_ROW };
    if (event.key in moves) {
      event.preventDefault();
      const next = Math.min(bytes.length - 1, Math.max(0, (cursor ?? -moves[event.key]!) + moves[event.key]!));
      onCursor(next);
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      onCursor(event.key === 'Home' ? 0 : bytes.length - 1);
    } else if (event.key === 'Escape') {
      onCursor(null);
    }
  };

  const cell = (i: number, text: string, column: 'hex' | 'text', extra = '') => {
    const chunk = chunkStarts.get(i);
    const group = byGroup[i];
    const title = group && group.start === i ? `${group.char} = ${Array.from(bytes.subarray(group.start, group.start + group.length), hexByte).join(' ')}` : undefined;
    return (
      <span key={`${column}${i}`} className={classFor(i) + extra} data-i={i} data-chunk={chunk} title={column === 'hex' ? title : undefined}>
        {column === 'hex' && chunk !== undefined && (
          <span className="chunk-tag" aria-hidden="true" title={props.chunkMarkerLabel?.(chunk)}>
            {chunk}
          </span>
        )}
        {text}
      </span>
    );
  };

  return (
    <div
      className="hex-view mono"
      role="group"
      aria-label={props.label}
      aria-describedby={props.describedBy}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onMouseOver={onHoverByte ? (event) => onHoverByte(indexOf(event)) : undefined}
      onMouseLeave={onHoverByte ? () => onHoverByte(null) : undefined}
      data-testid="hex-view"
    >
      <div className="hex-row hex-row--head" id={headId} aria-hidden="true">
        <span className="hex-offset">{props.offsetLabel ?? 'offset'}</span>
        <span className="hex-bytes">
          {Array.from({ length: BYTES_PER_ROW }, (_, i) => (
            <span key={i} className={`hx hx--head${i === HALF_ROW ? ' hx--split' : ''}`}>
              {hexByte(i).replace(/^0/, ' ')}
            </span>
          ))}
        </span>
        <span className="hex-text" />
      </div>
      {rows.map((row) => (
        <div key={row.offset} className="hex-row" aria-hidden="true">
          <span className="hex-offset">{formatOffset(row.offset, bytes.length)}</span>
          <span className="hex-bytes">
            {Array.from({ length: BYTES_PER_ROW }, (_, column) => {
              const i = row.offset + column;
              const split = column === HALF_ROW ? ' hx--split' : '';
              if (i >= row.end) return <span key={`pad${column}`} className={`hx hx--pad${split}`} />;
              return cell(i, hexByte(bytes[i]!), 'hex', split);
            })}
          </span>
          <span className="hex-text">
            {Array.from({ length: row.end - row.offset }, (_, column) => {
              const i = row.offset + column;
              return cell(i, texts[i]!.text, 'text');
            })}
          </span>
        </div>
      ))}
    </div>
  );
});
