import { memo, useEffect, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { LogEntry, LogFrame } from '../../app/live-session/message-log.ts';
import { InspectFrameButton } from '../protocol/InspectFrameButton.tsx';
import { DEPTH_MARKER, formatId, formatTapTime, MAX_PRETTY_DEPTH, prettyJsonSafe, showControlCharacters } from '../../app/live-session/log-format.ts';
import { partnerRole } from '../../app/live-session/log-find.ts';
import { httpChunkLabel } from '../../app/live-session/http-entry-label.ts';

export interface LogEntryRowProps {
  entry: LogEntry;
  pinned?: boolean;
  /** Set on the row a "go to" jumped to: it opens, scrolls into view and takes the focus. */
  target?: { frameIndex: number; at: number } | null;
  onTogglePin?: (seq: number) => void;
  onGoToPartner?: (seq: number, frameIndex: number) => void;
  /** Position among the rows shown (arrow keys move by it); a virtual list also places and measures the row. */
  index?: number;
  /** How many rows the list has, most of them not in the page: a screen reader says "row 12 of 700". */
  setSize?: number;
  style?: CSSProperties;
  measureRef?: (element: HTMLLIElement | null) => void;
}

const ARROW = { c2s: '→', s2c: '←', stderr: '⚠', system: '●' } as const;

type Lane = keyof typeof ARROW;

function laneOf(entry: LogEntry): Lane {
  if (entry.type === 'bytes') return entry.direction;
  if (entry.type === 'stderr') return 'stderr';
  return 'system';
}

/**
 * One row of the log; rows that carry bytes expand (click, Enter or Space) to show them parsed.
 * Memoised: entries never change once logged, so the pinned list re-renders only a changed row. The
 * log's own list re-renders the few rows in view each frame (their place and size change as rows come).
 */
export const LogEntryRow = memo(function LogEntryRow({ entry, pinned = false, target = null, onTogglePin, onGoToPartner, index, setSize, style, measureRef }: LogEntryRowProps) {
  const { t } = useTranslation('live');
  const [expanded, setExpanded] = useState(false);
  const rowRef = useRef<HTMLButtonElement & HTMLDivElement>(null);
  const targetAt = target?.at ?? null;
  useEffect(() => {
    if (targetAt === null) return;
    setExpanded(true);
    rowRef.current?.scrollIntoView?.({ block: 'nearest' });
    rowRef.current?.focus();
  }, [targetAt]);
  // P pins, G goes to the request/response of the first frame that has one (the keys the find bar lists).
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const key = event.key.toLowerCase();
    if (key === 'p' && onTogglePin) {
      event.preventDefault();
      onTogglePin(entry.seq);
    } else if (key === 'g' && onGoToPartner && entry.type === 'bytes') {
      const index = entry.frames.findIndex((frame) => partnerRole(frame) !== null);
      if (index >= 0) {
        event.preventDefault();
        onGoToPartner(entry.seq, index);
      }
    }
  };
  const lane = laneOf(entry);
  // Bytes of a relayed HTTP connection crossed that connection, not a process's stdin or stdout.
  const laneLabel = entry.type === 'bytes' && entry.conn !== undefined ? t(`log.${entry.direction}Conn`, { conn: entry.conn }) : t(`log.${lane}`);
  const hasError = entryHasError(entry);
  const expandable = entry.type === 'bytes' || entry.type === 'stderr';
  const detailsId = `log-entry-${entry.seq}`;
  const bytes = byteCount(entry);

  const cells = (
    <>
      <span className={`dir dir--${lane}`} title={laneLabel}>
        <span aria-hidden="true">{ARROW[lane]}</span>
        <span className="visually-hidden">{laneLabel}</span>
      </span>
      <span className="log-entry__time mono">{entry.t === null ? '' : t('log.time', { t: formatTapTime(entry.t) })}</span>
      <span className="log-entry__bytes mono">{bytes === null ? '' : t('log.bytes', { count: bytes })}</span>
      <span className="log-entry__summary">
        {entry.proc === 'client' && <span className="chip chip--muted">{t('log.clientProcess')}</span>}
        <EntrySummary entry={entry} />
      </span>
    </>
  );

  return (
    <li
      className={`log-entry log-entry--${lane}${hasError ? ' has-error' : ''}${pinned ? ' is-pinned' : ''}${target ? ' is-target' : ''}`}
      data-testid="log-entry"
      data-seq={entry.seq}
      data-index={index}
      aria-posinset={setSize === undefined || index === undefined ? undefined : index + 1}
      aria-setsize={setSize}
      style={style}
      ref={measureRef}
    >
      <div className="log-entry__line">
        {expandable ? (
          <button
            type="button"
            ref={rowRef}
            className="log-entry__row"
            aria-expanded={expanded}
            aria-controls={detailsId}
            onClick={() => setExpanded(!expanded)}
            onKeyDown={onKeyDown}
          >
            {cells}
          </button>
        ) : (
          <div className="log-entry__row" ref={rowRef} tabIndex={-1} onKeyDown={onKeyDown}>
            {cells}
          </div>
        )}
        {onTogglePin && (
          <button
            type="button"
            className="log-entry__pin"
            aria-pressed={pinned}
            aria-label={t('find.pinEntry', { seq: entry.seq + 1 })}
            title={t('find.pinEntry', { seq: entry.seq + 1 })}
            onClick={() => onTogglePin(entry.seq)}
            data-testid="log-pin"
          >
            <span aria-hidden="true">{pinned ? '★' : '☆'}</span>
          </button>
        )}
      </div>
      {expandable && expanded && (
        <div id={detailsId} className="log-entry__details">
          <EntryDetails entry={entry} onGoToPartner={onGoToPartner} />
        </div>
      )}
    </li>
  );
});

function byteCount(entry: LogEntry): number | null {
  if (entry.type === 'bytes') return entry.bytes.length;
  if (entry.type === 'stderr') return entry.byteLength;
  return null;
}

function entryHasError(entry: LogEntry): boolean {
  if (entry.type === 'bytes') return entry.frames.some((frame) => frame.type === 'error' || frame.kind === 'invalid');
  if (entry.type === 'exit') return entry.code !== 0 && entry.code !== null;
  return entry.type === 'error' || entry.type === 'closed';
}

function EntrySummary({ entry }: { entry: LogEntry }) {
  const { t } = useTranslation('live');
  switch (entry.type) {
    case 'bytes':
      return (
        <>
          {entry.frames.length === 0 && <span className="chip chip--muted">{noFrameText(t, entry)}</span>}
          {entry.frames.map((frame, index) => (
            <span key={index} className={`chip${frame.type === 'error' || frame.kind === 'invalid' ? ' chip--error' : ''}`}>
              {frameSummary(t, frame)}
            </span>
          ))}
          {entry.bufferedBytes > 0 && <span className="chip chip--muted">{t('log.partial', { count: entry.bufferedBytes })}</span>}
        </>
      );
    case 'stderr':
      return <span className="mono stderr-text">{firstLine(entry.text)}</span>;
    case 'spawn':
      return t('log.spawn', { pid: entry.pid, argv: entry.argv.join(' ') });
    case 'exit':
      return entry.code === null ? t('log.exitSignal', { signal: entry.signal ?? '?' }) : t('log.exit', { code: entry.code });
    case 'error':
      return t('log.tapError', { message: entry.message });
    case 'closed':
      return t('log.closed', { reason: entry.reason });
    case 'connection':
      return entry.state === 'open' ? t('log.connectionOpen', { conn: entry.conn }) : t('log.connectionClose', { conn: entry.conn, message: entry.message ?? '' });
  }
}

export function frameSummary(t: TFunction<'live'>, frame: LogFrame): string {
  if (frame.type === 'error') return t('log.unreadable', { kind: frame.kind, detail: frame.detail });
  const id = formatId(frame.id);
  switch (frame.kind) {
    case 'request':
      return `${frame.method ?? ''} ${id}`;
    case 'notification':
      return frame.method ?? t('log.notification');
    case 'response':
      return `${frame.method === null ? t('log.response') : t('log.responseTo', { method: frame.method })} ${id}`;
    case 'error-response':
      return `${frame.method === null ? t('log.errorResponse') : t('log.errorResponseTo', { method: frame.method })} ${id}`;
    case 'invalid':
      return t('log.invalid', { reason: frame.invalidReason ?? '' });
  }
}

function EntryDetails({ entry, onGoToPartner }: { entry: LogEntry; onGoToPartner?: ((seq: number, frameIndex: number) => void) | undefined }) {
  const { t } = useTranslation('live');
  if (entry.type === 'stderr') return <pre className="mono raw">{entry.text}</pre>;
  if (entry.type !== 'bytes') return null;
  return (
    <>
      <h4>{t('log.rawBytes')}</h4>
      <pre className="mono raw">{showControlCharacters(entry.text)}</pre>
      {entry.frames.map((frame, index) => (
        <div key={index} className={`frame${frame.type === 'error' || frame.kind === 'invalid' ? ' is-error' : ''}`}>
          <h4>
            {t('log.frame', { index: index + 1, length: frame.length })}
            {frame.startedEarlier && <span className="hint"> · {t('log.continued')}</span>} <InspectFrameButton entry={entry} frameIndex={index} />
            {onGoToPartner && <GoToPartnerButton frame={frame} onGo={() => onGoToPartner(entry.seq, index)} />}
          </h4>
          {frame.type === 'error' ? <p>{frameSummary(t, frame)}</p> : <FrameJson value={frame.value} />}
          {frame.type === 'message' && frame.kind === 'invalid' && <p>{frameSummary(t, frame)}</p>}
        </div>
      ))}
    </>
  );
}

/** A frame's message as indented JSON; a message nested too deep to print is cut, and says so. */
function FrameJson({ value }: { value: unknown }) {
  const { t } = useTranslation('live');
  const { text, truncated } = prettyJsonSafe(value);
  return (
    <>
      {truncated && <p className="hint">{t('log.tooDeep', { depth: MAX_PRETTY_DEPTH, marker: DEPTH_MARKER })}</p>}
      <pre className="mono json">{text}</pre>
    </>
  );
}

function firstLine(text: string): string {
  const line = text.split('\n').find((part) => part.trim() !== '') ?? '';
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

function GoToPartnerButton({ frame, onGo }: { frame: LogFrame; onGo(): void }) {
  const { t } = useTranslation('live');
  const role = partnerRole(frame);
  if (role === null || frame.type !== 'message') return null;
  const label = t(role === 'response' ? 'find.goToResponse' : 'find.goToRequest', { id: formatId(frame.id) });
  return (
    <button type="button" className="log-entry__goto" onClick={onGo} data-testid="log-goto">
      {label}
    </button>
  );
}

/** A chunk with no JSON-RPC message: on an HTTP connection, the HTTP message it starts (or a part of one). */
function noFrameText(t: TFunction<'live'>, entry: Extract<LogEntry, { type: 'bytes' }>): string {
  const label = httpChunkLabel(entry);
  if (label === null) return t('log.noFrame');
  return label.kind === 'message' ? t('log.httpMessage', { line: label.startLine }) : t('log.httpPart');
}

