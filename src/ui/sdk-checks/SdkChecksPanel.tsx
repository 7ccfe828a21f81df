import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useExercises } from '../hooks/exercise-context.ts';
import { useStore } from '../hooks/use-store.ts';
import { useLiveSession } from '../hooks/live-session-context.ts';
import type { CheckSuite } from '../../app/sdk-checks/check-run.ts';
import { CHECKED_EXERCISES, CLIENT_CODE_EXERCISES, createSdkChecks } from '../../app/sdk-checks/create-sdk-checks.ts';
import { bridgeLearnerCodeFromPage } from '../../runtime/bridge-host.ts';
import type { LearnerCodeMode } from '../../runtime/bridge-messages.ts';
import { hostRows } from '../../app/sdk-checks/host-support.ts';
import { hostReasonText } from '../../app/live-session/host-reason-text.ts';
import type { SdkChecksStore } from '../../app/sdk-checks/sdk-checks-store.ts';
import { useSdkText } from './use-sdk-text.ts';
import { SdkReport } from './SdkReport.tsx';
import { ServerCheckEra } from './ServerCheckEra.tsx';
import { ClientCheckEra } from './ClientCheckEra.tsx';
import { ClientCheckCode } from './ClientCheckCode.tsx';
import { UnfinishedExerciseNote } from '../exercise/UnfinishedExerciseNote.tsx';
import './sdk-checks.css';

export interface SdkChecksPanelProps {
  /** Tests pass their own; the page makes one from the live session and the exercise store. */
  checks?: SdkChecksStore;
  /** Whether the page's bridge runs learner code; default: what the page's meta tag says. */
  bridgeLearnerCode?: LearnerCodeMode;
}

/**
 * "Check my client" and "Check my server" against the official MCP SDK: two buttons, their
 * progress, their reports in the exercises' result format, and which host can run which check.
 */
export function SdkChecksPanel({ checks, bridgeLearnerCode }: SdkChecksPanelProps) {
  const t = useSdkText();
  // The hosts' reasons are worded once, in the live panel's namespace.
  const { t: liveText } = useTranslation('live');
  const session = useLiveSession();
  const exercises = useExercises();
  const learnerCode = bridgeLearnerCode ?? bridgeLearnerCodeFromPage();
  const [store] = useState(
    () =>
      checks ??
      createSdkChecks({
        session,
        exercises,
        bridgeLearnerCode: () => learnerCode,
        // Someone else's code, about to leave the browser's worker: the learner decides.
        confirmSharedCode: async (host, source) => window.confirm(t(source === 'imported-file' ? 'confirmImported' : 'confirmShared', { host })),
      }),
  );
  const state = useStore(store);
  // Re-render when the host changes: whether a check can run depends on it.
  const live = useStore(session);
  const busy = state.client.status === 'running' || state.server.status === 'running';
  const rows = hostRows(live.host.selection, learnerCode);

  return (
    <section className="sdk-checks" aria-labelledby="sdk-checks-heading" data-testid="sdk-checks">
      <h2 id="sdk-checks-heading">{t('heading')}</h2>
      <p className="hint">{t('intro')}</p>
      <div className="sdk-checks__suites">
        {(['client', 'server'] as const).map((suite: CheckSuite) => {
          const blocker = store.blocker(suite);
          const fallback = store.fallback(suite);
          const exercise = exercises.find(suite === 'client' ? CLIENT_CODE_EXERCISES[state.clientCode] : CHECKED_EXERCISES[suite]);
          return (
            <article key={suite} className="sdk-checks__suite" aria-labelledby={`sdk-checks-${suite}-title`}>
              <h3 id={`sdk-checks-${suite}-title`}>{t(suite === 'client' ? 'clientReport' : 'serverReport')}</h3>
              <p className="hint">{t(suite === 'server' ? 'checkServerNote' : state.clientCode === 'exercise-7' ? 'checkClientNoteEra' : state.clientCode === 'exercise-6' ? 'checkClientNoteHttp' : 'checkClientNote')}</p>
              {exercise && <p className="hint">{t('codeFrom', { exercise: `${exercise.meta.id} · ${exercise.meta.learnerFile}` })}</p>}
              {exercise && <UnfinishedExerciseNote exerciseId={exercise.meta.id} />}
              {suite === 'server' ? (
                <ServerCheckEra store={store} busy={busy} />
              ) : (
                <>
                  <ClientCheckCode store={store} busy={busy} />
                  {/* HTTP mode has one server: the SDK's Streamable HTTP server. */}
                  {state.clientCode !== 'exercise-6' && <ClientCheckEra store={store} busy={busy} />}
                </>
              )}
              <div className="button-row">
                <button type="button" className="primary" disabled={busy || blocker !== null} aria-describedby={blocker ? `sdk-checks-${suite}-blocker` : undefined} onClick={() => void store.run(suite)} data-testid={`sdk-run-${suite}`}>
                  {t(suite === 'client' ? 'checkClient' : 'checkServer')}
                </button>
              </div>
              {blocker && (
                <p className="hint sdk-checks__blocker" id={`sdk-checks-${suite}-blocker`} data-testid={`sdk-blocker-${suite}`}>
                  {t(`blocker.${blocker.kind}`)}
                </p>
              )}
              {!blocker && fallback && (
                <p className="hint sdk-checks__blocker" data-testid={`sdk-fallback-${suite}`}>
                  {t(`fallback.${fallback}`)}
                </p>
              )}
              <SdkReport suite={suite} state={state[suite]} />
            </article>
          );
        })}
      </div>
      {rows.length > 0 && (
        <div className="sdk-checks__hosts">
          <h3>{t('hosts.heading')}</h3>
          <table data-testid="sdk-hosts">
            <thead>
              <tr>
                <th scope="col" />
                <th scope="col">{t('hosts.clientColumn')}</th>
                <th scope="col">{t('hosts.serverColumn')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.kind} data-host={row.kind} aria-current={row.chosen ? 'true' : undefined}>
                  <th scope="row">
                    {t(`hosts.${row.kind}`)}
                    <span className="hint"> {row.chosen ? `(${t('hosts.chosen')})` : row.unavailable ? `(${t('hosts.notInUse', { reason: hostReasonText(liveText, { reason: row.unavailable, why: row.unavailableWhy }) })})` : ''}</span>
                  </th>
                  <td data-check="client">{t(`hosts.${row.client}`)}</td>
                  <td data-check="server">{t(`hosts.${row.server}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
