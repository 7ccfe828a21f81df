import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../hooks/use-store.ts';
import { useLiveSession } from '../hooks/live-session-context.ts';
import { LogEntryRow } from './LogEntryRow.tsx';

// Within this many pixels of the bottom counts as "following the log": new rows scroll into view.
const FOLLOW_SLACK_PX = 40;

export function MessageLog() {
  const { t } = useTranslation('live');
  const session = useLiveSession();
  const { log } = useStore(session);
  const listRef = useRef<HTMLOListElement>(null);
  const following = useRef(true);

  // Scroll once per frame, not once per chunk: reading scrollHeight forces a layout of the whole
  // list, and split-writes delivers hundreds of chunks a second.
  const scrollQueued = useRef(false);
  useEffect(() => {
    if (scrollQueued.current) return;
    scrollQueued.current = true;
    requestAnimationFrame(() => {
      scrollQueued.current = false;
      const list = listRef.current;
      if (list && following.current) list.scrollTop = list.scrollHeight;
    });
  }, [log]);

  return (
    <section className="panel-section message-log" aria-labelledby="log-heading">
      <div className="panel-section__header">
        <h3 id="log-heading">{t('log.heading')}</h3>
        <span className="hint">{t('log.count', { count: log.entries.length })}</span>
        <button type="button" onClick={() => session.clearLog()} disabled={log.entries.length === 0 && log.dropped === 0}>
          {t('log.clear')}
        </button>
      </div>
      <div className="message-log__legend hint" aria-hidden="true">
        <span className="dir dir--c2s">→</span> {t('log.c2s')} <span className="dir dir--s2c">←</span> {t('log.s2c')}{' '}
        <span className="dir dir--stderr">⚠</span> {t('log.stderr')}
      </div>
      {log.dropped > 0 && <p className="notice">{t('log.dropped', { count: log.dropped })}</p>}
      {log.entries.length === 0 ? (
        <p className="hint">{t('log.empty')}</p>
      ) : (
        <>
          {/* Column names for sighted readers; each row already says all of this in its own text. */}
          <div className="log-entry__row message-log__columns" aria-hidden="true">
            <span />
            <span>{t('log.columnTime')}</span>
            <span>{t('log.columnBytes')}</span>
            <span>{t('log.columnSummary')}</span>
          </div>
          <ol
            ref={listRef}
            className="message-log__list"
            aria-labelledby="log-heading"
            onScroll={(event) => {
              const list = event.currentTarget;
              following.current = list.scrollHeight - list.scrollTop - list.clientHeight < FOLLOW_SLACK_PX;
            }}
          >
            {log.entries.map((entry) => (
              <LogEntryRow key={entry.seq} entry={entry} />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
