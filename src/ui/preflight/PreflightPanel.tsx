import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../hooks/use-store.ts';
import { createBrowserPreflightChecks, currentBrowser } from '../../app/preflight/browser-checks.ts';
import type { CheckRow } from '../../app/preflight/check-types.ts';
import { countByStatus, createPreflightStore, hasFinished, type PreflightStore } from '../../app/preflight/preflight-store.ts';
import { addressWithoutToken, buildSummary, detailText, type HostReasonWords, type PreflightTranslate } from '../../app/preflight/summary.ts';
import { hostReasonText } from '../../app/live-session/host-reason-text.ts';
import { usePreflightText } from './use-preflight-text.ts';
import './preflight.css';

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * The workshop preflight: one row per check (isolation, WebContainer, bridge, storage, offline
 * copy) with its status, what was found and what to do; Run again; and a plain-text summary the
 * instructor can collect. Runs the checks when it mounts. `store` is for tests.
 */
export function PreflightPanel({ store }: { store?: PreflightStore }) {
  const t = usePreflightText();
  // A host's reason is worded once, in the live panel's namespace (the same words as its host list).
  const { t: liveText } = useTranslation('live');
  const hostReason: HostReasonWords = (reason) => hostReasonText(liveText, reason);
  const [preflight] = useState(() => store ?? createPreflightStore(createBrowserPreflightChecks()));
  const state = useStore(preflight);
  const { rows, finishedAt } = state;
  const finished = hasFinished(state);
  const [copyState, setCopyState] = useState<CopyState>('idle');
  const summaryRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    void preflight.run();
  }, [preflight]);

  const counts = countByStatus(rows);
  const summary = buildSummary(rows, t, { browser: currentBrowser().label, address: addressWithoutToken(window.location.href), checkedAt: finishedAt, hostReason });

  function runAgain(): void {
    setCopyState('idle');
    void preflight.run();
  }

  async function copySummary(): Promise<void> {
    try {
      // navigator.clipboard exists only in a secure context (not on a workshop's http:// LAN address).
      if (!navigator.clipboard) throw new Error('no async clipboard here');
      await navigator.clipboard.writeText(summary);
      setCopyState('copied');
    } catch {
      // The older way works in any context during a click: select the text and copy the selection.
      // If that fails too, the text stays selected below, to copy by hand.
      const area = summaryRef.current;
      area?.focus();
      area?.select();
      setCopyState(area !== null && document.execCommand('copy') ? 'copied' : 'failed');
    }
  }

  return (
    <section className="preflight" aria-labelledby="preflight-heading">
      <h2 id="preflight-heading">{t('panel.heading')}</h2>
      <p className="hint">{t('panel.intro')}</p>
      <div className="preflight__controls">
        <button type="button" onClick={runAgain}>
          {t('panel.runAgain')}
        </button>
        <p className="preflight__progress" role="status">
          {finished ? t('panel.finished', counts) : t('panel.running', { done: counts.done, total: rows.length })}
        </p>
      </div>
      <ul className="preflight__rows" aria-label={t('panel.checks')} aria-busy={!finished}>
        {rows.map((row) => (
          <PreflightRowView key={row.id} row={row} t={t} hostReason={hostReason} />
        ))}
      </ul>
      <div className="preflight__summary-bar">
        <h3 id="preflight-summary-heading">{t('panel.summaryHeading')}</h3>
        <button type="button" onClick={() => void copySummary()}>
          {t('panel.copy')}
        </button>
        <span role="status" className={copyState === 'failed' ? 'is-error' : undefined}>
          {copyState === 'copied' ? t('panel.copied') : copyState === 'failed' ? t('panel.copyFailed') : ''}
        </span>
      </div>
      <textarea ref={summaryRef} className="preflight__summary" readOnly value={summary} aria-labelledby="preflight-summary-heading" spellCheck={false} />
    </section>
  );
}

function PreflightRowView({ row, t, hostReason }: { row: CheckRow; t: PreflightTranslate; hostReason: HostReasonWords }) {
  const status = row.state === 'done' ? row.result.status : row.state;
  const fixes = row.state === 'done' && row.result.status !== 'pass' ? row.result.fixes : [];
  return (
    <li className={`preflight-row preflight-row--${status}`} data-check={row.id}>
      <div className="preflight-row__header">
        <span className="preflight-row__status">{t(`status.${status}`)}</span>
        <h3 className="preflight-row__title">{t(`check.${row.id}`)}</h3>
      </div>
      {row.state === 'done' && <p className="preflight-row__detail">{detailText(t, row.result.detail, hostReason)}</p>}
      {fixes.length > 0 && (
        <>
          <p className="preflight-row__fixes-label">{t('panel.whatToDo')}</p>
          <ul className="preflight-row__fixes">
            {fixes.map((fix) => (
              <li key={fix.key}>{t(`fix.${fix.key}`, fix.values)}</li>
            ))}
          </ul>
        </>
      )}
    </li>
  );
}
