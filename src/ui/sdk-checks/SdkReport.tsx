import type { HostKind } from '../../runtime/host.ts';
import type { CheckResult, CheckSuite } from '../../app/sdk-checks/check-run.ts';
import type { SuiteState } from '../../app/sdk-checks/sdk-checks-store.ts';
import { PROGRAM_OF } from '../../app/sdk-checks/host-support.ts';
import type { SdkText, SdkTextKey } from '../../app/sdk-checks/text.ts';
import { useSdkText } from './use-sdk-text.ts';
import { ExpectedActual } from '../components/ExpectedActual.tsx';

const STATUS_MARK = { pass: '✓', fail: '✗', error: '!' } as const;

export interface SdkReportProps {
  suite: CheckSuite;
  state: SuiteState;
}

/** One suite's report, in the look of the exercises' test results: a summary, then each check. */
export function SdkReport({ suite, state }: SdkReportProps) {
  const t = useSdkText();
  const results = state.status === 'done' ? state.report.tests : state.status === 'running' ? state.results : [];
  const status = state.status === 'done' ? state.report.status : state.status;
  return (
    <div className="sdk-report" data-testid={`sdk-report-${suite}`} data-status={status} data-seq={state.status === 'done' ? state.seq : 0}>
      <p className={`run-status run-status--${status}`} role="status" aria-live="polite" aria-atomic="true" data-testid={`sdk-status-${suite}`}>
        {statusText(t, suite, state)}
      </p>
      {state.status === 'done' && state.report.status === 'error' && (
        <pre className="run-error run-error__message" data-testid={`sdk-error-${suite}`}>
          {state.problem?.kind === 'start-failed'
            ? t('problem.start-failed', { host: state.problem.host, detail: state.problem.detail })
            : state.problem?.kind === 'crashed'
              ? t('problem.crashed', { detail: state.problem.detail })
              : state.problem?.kind === 'declined'
                ? t('problem.declined', { host: state.problem.host })
                : state.problem !== null
                  ? t(`blocker.${state.problem.kind}`)
                  : state.report.message}
        </pre>
      )}

      {results.length > 0 && (
        <ol className="test-list" aria-label={t(suite === 'client' ? 'clientReport' : 'serverReport')}>
          {results.map((result) => (
            <CheckItem key={result.id} suite={suite} result={result} />
          ))}
        </ol>
      )}
    </div>
  );
}

function hostName(host: HostKind | null): string {
  return host ?? '—';
}

function statusText(t: SdkText, suite: CheckSuite, state: SuiteState): string {
  switch (state.status) {
    case 'idle':
      return t('notRun');
    case 'running':
      if (state.phase === 'loading') return t('phase.loading');
      if (state.phase === 'starting') return t('phase.starting', { program: state.program ?? PROGRAM_OF[suite], host: hostName(state.host) });
      return state.total === null ? t('phase.checkingFirst') : t('phase.checking', { done: state.results.length, total: state.total });
    case 'done': {
      const { report } = state;
      const failed = report.tests.filter((test) => test.status !== 'pass').length;
      if (report.status === 'pass') return t('summary.pass', { total: report.tests.length, host: hostName(state.host) });
      if (report.status === 'fail') return t('summary.fail', { failed, total: report.tests.length, host: hostName(state.host) });
      return t('summary.error');
    }
  }
}

function CheckItem({ suite, result }: { suite: CheckSuite; result: CheckResult }) {
  const t = useSdkText();
  const failed = result.status !== 'pass';
  const title = t(`check.${suite}.${result.id}` as SdkTextKey, { defaultValue: result.name });
  return (
    <li className={`test-result test-result--${result.status}`} data-testid="sdk-check" data-check={result.id} data-status={result.status}>
      <div className="test-result__head">
        <span className={`test-result__badge test-result__badge--${result.status}`}>
          <span aria-hidden="true">{STATUS_MARK[result.status]}</span> {t(`status.${result.status}`)}
        </span>
        <span className="test-result__name">{title}</span>
        <span className="hint">{t('duration', { ms: Math.round(result.durationMs) })}</span>
      </div>
      {failed && result.message !== undefined && <pre className="test-result__message">{result.message}</pre>}
      {failed && <ExpectedActual expected={result.expected} actual={result.actual} expectedLabel={t('expected')} actualLabel={t('actual')} />}
      <details className="test-result__code">
        <summary>{t('code')}</summary>
        <pre>
          <code>{result.code}</code>
        </pre>
      </details>
    </li>
  );
}
