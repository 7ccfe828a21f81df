// The read-only sequence diagram of an opened trace, a page of frames at a time; arrows open the
// byte inspector on the frame they draw.

import { useContext, useId, useMemo, useState } from 'react';
import type { HttpExchangeRecord } from '../../app/protocol/http-exchanges.ts';
import { exchangeOfConnection } from '../../app/trace/http-trace-exchange.ts';
import { diagramPage, DIAGRAM_PAGE } from '../../app/trace/trace-diagram.ts';
import { targetFromLog } from '../../app/protocol/log-frames.ts';
import type { TraceStore } from '../../app/trace/trace-store.ts';
import { useStore } from '../hooks/use-store.ts';
// An HTTP trace's arrows open the HTTP byte inspector on their connection.
import { HttpInspectorDialog } from '../protocol/HttpInspectorDialog.tsx';
import { ProtocolServicesContext } from '../protocol/ProtocolServicesProvider.tsx';
import { SequenceDiagram } from '../protocol/SequenceDiagram.tsx';
import { useTraceText } from './use-trace-text.ts';


export function TraceDiagram({ store }: { store: TraceStore }) {
  const t = useTraceText();
  const services = useContext(ProtocolServicesContext);
  const { log, framing } = useStore(store);
  const [start, setStart] = useState(0);
  const [exchange, setExchange] = useState<HttpExchangeRecord | null>(null);
  // Mounted from the first opening on: closing then goes through the dialog's own close, which returns the focus.
  const [dialogLoaded, setDialogLoaded] = useState(false);
  const labelId = useId();
  const page = useMemo(() => diagramPage(log.entries, start), [log.entries, start]);
  const inspect = (arrowSeq: number) => {
    const frame = page.frames.get(arrowSeq);
    if (!frame || services === null) return;
    const entries = store.getSnapshot().log.entries;
    const entry = entries.find((candidate) => candidate.seq === frame.seq);
    if (entry?.type === 'bytes' && entry.conn !== undefined) {
      setExchange(exchangeOfConnection(entries, entry.conn));
      setDialogLoaded(true);
      return;
    }
    const target = targetFromLog(store.getSnapshot().log, framing, frame.seq, frame.frameIndex);
    if (target) services.ui.openInspector(target);
  };

  return (
    <section className="panel-section trace-diagram" aria-labelledby={labelId}>
      <div className="panel-section__header">
        <h3 id={labelId}>{t('diagram.heading')}</h3>
        {page.total > 0 && (
          <span className="hint" data-testid="trace-diagram-range">
            {t('diagram.range', { from: start + 1, to: start + page.shown, total: page.total })}
          </span>
        )}
        <button type="button" disabled={start === 0} onClick={() => setStart(Math.max(0, start - DIAGRAM_PAGE))}>
          {t('diagram.previous')}
        </button>
        <button type="button" disabled={start + DIAGRAM_PAGE >= page.total} onClick={() => setStart(start + DIAGRAM_PAGE)}>
          {t('diagram.next')}
        </button>
      </div>
      {page.total === 0 ? (
        <p className="hint">{t('diagram.empty')}</p>
      ) : (
        <div className="trace-diagram__scroll">
          <SequenceDiagram records={page.records} waiting={null} currentStep={null} focus={null} onInspect={inspect} labelId={labelId} />
        </div>
      )}
      {dialogLoaded && <HttpInspectorDialog exchange={exchange} onClose={() => setExchange(null)} />}
    </section>
  );
}
