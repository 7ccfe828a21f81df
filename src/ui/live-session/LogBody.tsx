// The message log's body, shared by the live panel and an opened trace: the find bar, the pinned
// entries, and the rows that pass the filters. Loaded after the first paint (it is not needed
// before the first byte), so its code stays out of the first-paint budget.

import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { filterEntries, filterInSlices, methodsOf, type LogQuery } from '../../app/live-session/log-find.ts';
import type { LogEntry } from '../../app/live-session/message-log.ts';
import { LogFindStore } from '../../app/live-session/log-find-store.ts';
import { formatId } from '../../app/live-session/log-format.ts';
import { useStore } from '../hooks/use-store.ts';
import { useLogSource } from '../hooks/log-source-context.ts';
import { FindBar } from './FindBar.tsx';
import { LogEntryRow } from './LogEntryRow.tsx';
import { LogList } from './LogList.tsx';
import './log-body.css';

export interface LogBodyProps {
  /** Find's state; by default the body keeps its own (it lives as long as the log has entries). */
  find?: LogFindStore;
  /** The heading that names the list ("Message log"). */
  labelledBy: string;
  follow: boolean;
  /** Shown instead of everything while the log is empty. */
  empty?: ReactNode;
}

export default function LogBody({ find: given, labelledBy, follow, empty = null }: LogBodyProps) {
  const { t } = useTranslation('live');
  const [own] = useState(() => new LogFindStore());
  const find = given ?? own;
  const source = useLogSource();
  const { log, methods: knownMethods } = useStore(source);
  const { query, pins, target, missing } = useStore(find);
  const listId = useId();
  const searchRef = useRef<HTMLInputElement>(null);
  const container = useRef<HTMLDivElement>(null);

  const { shown, searching } = useShownEntries(log.entries, query, pins, target?.seq ?? null);
  const methods = useMemo(() => knownMethods ?? methodsOf(log.entries), [knownMethods, log.entries]);
  const pinned = useMemo(() => log.entries.filter((entry) => pins.has(entry.seq)), [log.entries, pins]);
  const togglePin = useCallback((seq: number) => find.togglePin(seq), [find]);
  const goToPartner = useCallback((seq: number, frameIndex: number) => find.goToPartner(source.getSnapshot().log.entries, seq, frameIndex), [find, source]);
  const missingText = useMemo(() => {
    if (missing === null) return null;
    const entry = log.entries.find((candidate) => candidate.seq === missing.seq);
    const frame = entry?.type === 'bytes' ? entry.frames[missing.frameIndex] : undefined;
    const id = frame?.type === 'message' ? formatId(frame.id) : '';
    return frame?.type === 'message' && frame.kind === 'request' ? t('find.noResponse', { id }) : t('find.noRequest', { id });
  }, [missing, log.entries, t]);

  // A cleared log takes its pins and its last jump with it (the entries they named are gone).
  const isEmpty = log.entries.length === 0;
  useEffect(() => {
    if (isEmpty) find.reset();
  }, [isEmpty, find]);

  // "/" from anywhere in the log (but a text field) jumps to the search box.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== '/' || event.altKey || event.ctrlKey || event.metaKey) return;
    const element = event.target as HTMLElement;
    if (element.closest('input, select, textarea')) return;
    event.preventDefault();
    searchRef.current?.focus();
  };
  const enterResults = () => container.current?.querySelector<HTMLElement>(`#${CSS.escape(listId)} .log-entry__row`)?.focus();

  if (isEmpty && empty !== null) return <p className="hint">{empty}</p>;
  return (
    <div className="log-body" ref={container} onKeyDown={onKeyDown}>
      <FindBar find={find} methods={methods} shown={shown.length} total={log.entries.length} searching={searching} listId={listId} searchRef={searchRef} onEnterResults={enterResults} />
      {missingText !== null && (
        // A live region, not role="status": the live panel's server line stays its one status.
        <p className="notice" aria-live="polite">
          {missingText}
        </p>
      )}
      {pinned.length > 0 && (
        <section className="log-pinned" aria-label={t('find.pinned')}>
          <h4>{t('find.pinned')}</h4>
          <ul className="message-log__list message-log__list--pinned" aria-label={t('find.pinned')}>
            {pinned.map((entry) => (
              <LogEntryRow key={entry.seq} entry={entry} pinned onTogglePin={togglePin} onGoToPartner={goToPartner} />
            ))}
          </ul>
        </section>
      )}
      {log.entries.length > 0 && (
        <div className="log-entry__row message-log__columns" aria-hidden="true">
          {/* Column names for sighted readers; each row already says all of this in its own text. */}
          <span />
          <span>{t('log.columnTime')}</span>
          <span>{t('log.columnBytes')}</span>
          <span>{t('log.columnSummary')}</span>
        </div>
      )}
      {log.entries.length > 0 && shown.length === 0 ? (
        <p className="hint">{t('find.nothing')}</p>
      ) : (
        <LogList
          id={listId}
          entries={shown}
          pins={pins}
          target={target}
          onTogglePin={togglePin}
          onGoToPartner={goToPartner}
          labelledBy={labelledBy}
          follow={follow && shown === log.entries}
        />
      )}
    </div>
  );
}

// Up to this many entries (every live log) the filter runs at once; an opened trace's longer log is
// filtered a slice per task, so typing in the search box never blocks the page.
const SYNC_FILTER_LIMIT = 20_000;

function useShownEntries(entries: readonly LogEntry[], query: LogQuery, pins: ReadonlySet<number>, reveal: number | null) {
  const sync = entries.length <= SYNC_FILTER_LIMIT;
  const syncShown = useMemo(() => (sync ? filterEntries(entries, query, pins, reveal) : null), [sync, entries, query, pins, reveal]);
  const [sliced, setSliced] = useState<readonly LogEntry[] | null>(null);
  const [searching, setSearching] = useState(false);
  useEffect(() => {
    if (sync) return;
    setSearching(true);
    return filterInSlices(entries, query, pins, reveal, (shown) => {
      setSliced(shown);
      setSearching(false);
    });
  }, [sync, entries, query, pins, reveal]);
  return syncShown !== null ? { shown: syncShown, searching: false } : { shown: sliced ?? entries, searching };
}
