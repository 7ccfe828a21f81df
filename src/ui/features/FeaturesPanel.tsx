// Server features, the way the MCP Inspector's tabs show them but down to the bytes: one session
// with the feature server on the live host, five tabs of actions, and under each tab the
// connections its actions made, each opening in the HTTP byte inspector. A sampling request from
// the server opens the approval dialog. Loaded when the learner first opens the disclosure.

import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FEATURE_TABS, FeaturesStore, type FeatureTab, type FeaturesState } from '../../app/features/features-store.ts';
import type { FeaturesText } from '../../app/features/text.ts';
import { whenHostChosen } from '../../app/services/protocol-services.ts';
import { useLiveSession } from '../hooks/live-session-context.ts';
import { useStore } from '../hooks/use-store.ts';
import { HttpInspectorDialog } from '../protocol/HttpInspectorDialog.tsx';
import { ExchangeList } from './ExchangeList.tsx';
import { LoggingTab, ProgressTab } from './LoggingProgressTabs.tsx';
import { PromptsTab } from './PromptsTab.tsx';
import { ResourcesTab } from './ResourcesTab.tsx';
import { SamplingDialog, SamplingTab } from './SamplingTab.tsx';
import { useFeaturesText } from './use-features-text.ts';
import './features.css';
// Static: the page's first chunk has it anyway (share links, progress files use it).
import { downloadFile } from '../../app/progress-transfer/browser-file.ts';

export interface TabProps {
  store: FeaturesStore;
  state: FeaturesState;
  /** Buttons that talk to the server are off while another action runs or no session is open. */
  disabled: boolean;
}

export default function FeaturesPanel() {
  const t = useFeaturesText();
  const { t: tLive, i18n } = useTranslation('live');
  const session = useLiveSession();
  const language = useRef(i18n);
  language.current = i18n;
  const [store] = useState(
    () =>
      new FeaturesStore({
        // Pressed while the page is still choosing its host: wait for the choice, as the steppers do.
        startProgram: (spec) => whenHostChosen(session).then(() => session.startProgram(spec)),
        language: () => language.current.resolvedLanguage ?? language.current.language,
      }),
  );
  useEffect(() => () => store.dispose(), [store]);
  const state = useStore(store);
  const [tab, setTab] = useState<FeatureTab>('resources');
  const [inspected, setInspected] = useState<number | null>(null);
  const baseId = useId();
  const tabRefs = useRef(new Map<FeatureTab, HTMLButtonElement>());
  const { status } = state.status;
  const disabled = status !== 'ready' || state.busy !== null;
  const opened = state.exchanges.find((exchange) => exchange.conn === inspected) ?? null;

  // The tabs pattern: arrows move between tabs (and select), Home and End go to the ends.
  const onTabKey = (event: KeyboardEvent) => {
    const index = FEATURE_TABS.indexOf(tab);
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: FEATURE_TABS.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = FEATURE_TABS[(next + FEATURE_TABS.length) % FEATURE_TABS.length]!;
    setTab(target);
    tabRefs.current.get(target)?.focus();
  };
  const TabPanel = { resources: ResourcesTab, prompts: PromptsTab, logging: LoggingTab, progress: ProgressTab, sampling: SamplingTab }[tab];

  return (
    <section className="features-panel" aria-labelledby={`${baseId}-heading`} data-testid="features-panel">
      <h3 id={`${baseId}-heading`}>{t('panel.heading')}</h3>
      <p className="hint">{t('panel.intro')}</p>
      <div className="button-row">
        <button type="button" className="primary" disabled={status === 'connecting' || status === 'ready'} onClick={() => void store.connect()} data-testid="features-connect">
          {t('panel.connect')}
        </button>
        <button type="button" disabled={status !== 'ready' && status !== 'failed'} onClick={() => store.disconnect()}>
          {t('panel.disconnect')}
        </button>
        <button type="button" disabled={state.exchanges.length === 0} onClick={() => void saveTrace(store)} title={t('panel.saveTraceHint')} data-testid="features-save-trace">
          {t('panel.saveTrace')}
        </button>
      </div>
      <p role="status" className={`features-status${status === 'failed' ? ' is-error' : ''}`} data-testid="features-status" data-status={status}>
        {statusText(t, state)}
        {state.busy !== null && <span className="hint"> {t('panel.busy')}</span>}
      </p>
      {state.host && <p className="hint">{t('panel.host', { host: tLive(`hosts.${state.host}`) })}</p>}
      <ExchangeList label={t('exchanges.session')} exchanges={store.exchangesOf('session')} onInspect={setInspected} testId="features-session-exchanges" />
      <div role="tablist" aria-label={t('tabs.label')} className="features-tabs" onKeyDown={onTabKey}>
        {FEATURE_TABS.map((name) => (
          <button
            key={name}
            ref={(node) => void (node ? tabRefs.current.set(name, node) : tabRefs.current.delete(name))}
            type="button"
            role="tab"
            id={`${baseId}-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`${baseId}-panel`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
            data-testid={`features-tab-${name}`}
          >
            {t(`tabs.${name}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${tab}`} className="features-tabpanel" data-testid="features-tabpanel" tabIndex={0}>
        <TabPanel store={store} state={state} disabled={disabled} />
        {state.error?.tab === tab && (
          <p className="is-error" role="alert" data-testid="features-error">
            {state.error.text}
          </p>
        )}
        <ExchangeList label={t('exchanges.heading')} exchanges={store.exchangesOf(tab)} onInspect={setInspected} testId="features-tab-exchanges" />
      </div>
      <SamplingDialog store={store} pending={state.sampling.pending} />
      <HttpInspectorDialog exchange={opened} onClose={() => setInspected(null)} />
    </section>
  );
}

/** The session (every connection's exact bytes) as an HTTP trace the trace view opens; the writer loads on the first save. */
async function saveTrace(store: FeaturesStore): Promise<void> {
  const recording = store.recording();
  if (recording === null) return;
  const { httpTraceText, traceFileName } = await import('../../app/trace/trace-export.ts');
  downloadFile(traceFileName(recording.started), httpTraceText(recording), 'application/x-ndjson');
}

function statusText(t: FeaturesText, state: FeaturesState): string {
  switch (state.status.status) {
    case 'idle':
      return t('panel.status.idle');
    case 'connecting':
      return t('panel.status.connecting');
    case 'ready':
      return t('panel.status.ready', { session: state.sessionId ?? '' });
    case 'failed':
      return t('panel.status.failed', { reason: state.status.reason });
  }
}
