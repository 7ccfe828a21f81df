import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../hooks/use-store.ts';
import { useLiveSession } from '../hooks/live-session-context.ts';
import type { LiveSessionStore } from '../../app/live-session/live-session-store.ts';
// Static: the page's first chunk has it anyway (share links, progress files use it).
import { downloadFile } from '../../app/progress-transfer/browser-file.ts';

// The rows and Find load just after the first paint: the log is empty until a server runs.
const LogBody = lazy(() => import('./LogBody.tsx'));

export function MessageLog() {
  const { t } = useTranslation('live');
  const session = useLiveSession();
  const { log } = useStore(session);

  return (
    <section className="panel-section message-log" aria-labelledby="log-heading">
      <div className="panel-section__header">
        <h3 id="log-heading">{t('log.heading')}</h3>
        <span className="hint">{t('log.count', { count: log.entries.length })}</span>
        <button
          type="button"
          onClick={() => session.clearLog()}
          disabled={log.entries.length === 0 && log.dropped === 0}
        >
          {t('log.clear')}
        </button>
        <button type="button" onClick={() => void saveTrace(session)} disabled={log.entries.length === 0} title={t('log.saveTraceHint')} data-testid="save-trace">
          {t('log.saveTrace')}
        </button>
      </div>
      <div className="message-log__legend hint" aria-hidden="true">
        <span className="dir dir--c2s">→</span> {t('log.c2s')} <span className="dir dir--s2c">←</span> {t('log.s2c')}{' '}
        <span className="dir dir--stderr">⚠</span> {t('log.stderr')}
      </div>
      {log.dropped > 0 && <p className="notice">{t('log.dropped', { count: log.dropped })}</p>}
      {/* Mounted from the start, so its code is in before the first byte arrives (no flash without rows). */}
      <Suspense fallback={<p className="hint">{t('log.empty')}</p>}>
        <LogBody labelledBy="log-heading" follow empty={t('log.empty')} />
      </Suspense>
    </section>
  );
}

/** The latest run as a trace file; the writer loads on the first save, not with the page. */
async function saveTrace(session: LiveSessionStore): Promise<void> {
  const run = session.lastRun();
  if (run === null) return;
  const { traceText, traceFileName } = await import('../../app/trace/trace-export.ts');
  downloadFile(traceFileName(run.started), traceText(run), 'application/x-ndjson');
}
