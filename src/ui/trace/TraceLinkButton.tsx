// "Copy a link to this trace": the whole trace in a #trace= link, when it is small enough.

import { useState } from 'react';
import { traceHash } from '../../app/trace/trace-link.ts';
import type { OpenedTrace } from '../../app/trace/trace-store.ts';
import { useTraceText } from './use-trace-text.ts';

type LinkStatus = { kind: 'copied' } | { kind: 'too-long' } | { kind: 'manual'; url: string } | null;

export function TraceLinkButton({ trace }: { trace: OpenedTrace }) {
  const t = useTraceText();
  const [status, setStatus] = useState<LinkStatus>(null);
  const copy = async () => {
    const text = typeof trace.source === 'string' ? trace.source : await trace.source.text();
    const hash = await traceHash(text);
    if (hash === null) return setStatus({ kind: 'too-long' });
    const url = `${window.location.origin}${window.location.pathname}${window.location.search}${hash}`;
    try {
      await navigator.clipboard.writeText(url);
      setStatus({ kind: 'copied' });
    } catch {
      setStatus({ kind: 'manual', url });
    }
  };
  return (
    <div className="trace-link">
      <button type="button" onClick={() => void copy()} data-testid="trace-copy-link">
        {t('link.copy')}
      </button>
      <span role="status" className="hint">
        {status?.kind === 'copied' ? t('link.copied') : status?.kind === 'too-long' ? t('link.tooLong') : ''}
      </span>
      {status?.kind === 'manual' && (
        <>
          <p className="notice">{t('link.copyFailed')}</p>
          <textarea className="mono" readOnly rows={3} value={status.url} aria-label={t('link.copy')} ref={(node) => node?.select()} data-testid="trace-link-text" />
        </>
      )}
    </div>
  );
}
