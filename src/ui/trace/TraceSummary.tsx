// What the opened trace is: its file, how it was recorded, framing, program, start, size.

import type { OpenedTrace } from '../../app/trace/trace-store.ts';
import { sizeText } from '../../app/trace/size-text.ts';
import { useTraceText } from './use-trace-text.ts';

export function TraceSummary({ trace }: { trace: OpenedTrace }) {
  const t = useTraceText();
  const { header } = trace;
  return (
    <section className="panel-section trace-summary" aria-label={t('summary.heading')} data-testid="trace-summary">
      <dl>
        <dt>{t('summary.file')}</dt>
        <dd className="mono">{trace.name}</dd>
        <dt>{t('summary.mode')}</dt>
        <dd>{t(`summary.modes.${header.mode}`)}</dd>
        <dt>{t('summary.framing')}</dt>
        <dd>{t(header.framingSource === 'given' ? 'summary.framingGiven' : 'summary.framingGuessed', { framing: header.framing })}</dd>
        {header.mode === 'http' ? (
          // A relay names the server it forwarded to; a page's recording names the program it started.
          header.target !== undefined ? (
            <>
              <dt>{t('summary.target')}</dt>
              <dd className="mono">{header.target}</dd>
            </>
          ) : header.program !== undefined ? (
            <>
              <dt>{t('summary.program')}</dt>
              <dd className="mono">{header.program.join(' ')}</dd>
            </>
          ) : null
        ) : (
          <>
            <dt>{t('summary.program')}</dt>
            <dd className="mono">{header.program.join(' ')}</dd>
          </>
        )}
        {header.mode === 'between' && (
          <>
            <dt>{t('summary.client')}</dt>
            <dd className="mono">{header.client.join(' ')}</dd>
          </>
        )}
        <dt>{t('summary.started')}</dt>
        <dd className="mono">{header.started}</dd>
        <dt>{t('summary.recorder')}</dt>
        <dd>{header.recorder}</dd>
        <dt>{t('summary.events')}</dt>
        <dd data-testid="trace-events">{trace.events}</dd>
        <dt>{t('summary.size')}</dt>
        <dd>{sizeText(trace.bytes)}</dd>
      </dl>
      {header.mode === 'http' && <p className="hint">{t('summary.httpNote')}</p>}
    </section>
  );
}
