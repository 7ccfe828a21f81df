// What the merge did: the count, the refusal (the learner's own error text when their code threw),
// or, for a merge that claimed success, the silent skip/rename that is the bug.

import { memo } from 'react';
import type { MergeReport } from '../../app/chapter-loop/chapter-loop-store.ts';
import { useAgentText } from './use-chapter-loop-text.ts';

export const MergeReportView = memo(function MergeReportView({ report }: { report: MergeReport }) {
  const t = useAgentText();
  const who = t(report.code === 'learner' ? 'merge.whoLearner' : 'merge.whoReference');
  const error = report.error ? `${report.error.name}: ${report.error.message}` : '';
  const clash = !report.ok && report.prefix === '' && report.error !== null && /already|clash|duplicate/i.test(`${report.error.name} ${report.error.message}`);
  return (
    <div className="agent-merge-report" data-testid="merge-report" data-ok={report.ok ? 'true' : 'false'}>
      {report.ok ? (
        <p className={report.problems.length === 0 ? 'ok-text' : 'notice is-error'}>{report.count === null ? t('merge.registeredNoCount', { who }) : t('merge.registered', { count: report.count, who })}</p>
      ) : (
        <p className="notice is-error" role="alert" data-testid="merge-error">
          {report.error?.line != null ? t('merge.refusedAt', { line: report.error.line, error }) : t('merge.refused', { error })}
        </p>
      )}
      {report.problems.length > 0 && (
        <div className="notice is-error" role="alert" data-testid="merge-problems">
          <p>{t('merge.problems.heading')}</p>
          <ul>
            {report.problems.map((problem) => (
              <li key={`${problem.kind}:${'remoteName' in problem ? problem.remoteName : problem.name}`}>
                {problem.kind === 'skipped'
                  ? t('merge.problems.skipped', { name: problem.remoteName })
                  : problem.kind === 'renamed'
                    ? t('merge.problems.renamed', { name: problem.remoteName, expected: problem.expected, actual: problem.actual })
                    : t('merge.problems.replacedLocal', { name: problem.name })}
              </li>
            ))}
          </ul>
        </div>
      )}
      {clash && <p className="hint">{t('merge.clashHint')}</p>}
      {report.ok && report.prefix !== '' && report.problems.length === 0 && <p className="hint">{t('merge.prefixHint')}</p>}
      {report.listed.length > 0 && <p className="hint">{t('merge.listed', { names: report.listed.join(', ') })}</p>}
    </div>
  );
});
