import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Exercise } from '../../exercise/types.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { useExerciseText } from '../hooks/use-exercise-text.ts';
import { useLocale } from '../hooks/use-locale.ts';
import { headingTitles, parseMarkdown } from '../../app/exercise/markdown.ts';
import { summarizeRun, type RunSummary } from '../../app/exercise/run-summary.ts';
import type { RunState } from '../../app/exercise/exercise-store.ts';
import { TestResultList } from './TestResultList.tsx';

// Shown only after a run passes: not part of the first paint.
const NextStation = lazy(() => import('./NextStation.tsx').then((module) => ({ default: module.NextStation })));

export interface ResultsPanelProps {
  exercise: Exercise;
  run: RunState;
  completed: boolean;
  onGoToLine(line: number, column?: number): void;
}

/** Exercism's shape: the run's overall state first, then every test in file order. */
export function ResultsPanel({ exercise: shown, run, completed, onGoToLine }: ResultsPanelProps) {
  const { t } = useTranslation('exercise');
  const locale = useLocale();
  // Test names and lesson headings in the UI language: English names until they are in.
  const exercises = useExercises();
  useExerciseText(exercises, shown.meta.id, locale);
  const exercise = exercises.find(shown.meta.id) ?? shown;
  const summary = summarizeRun(run);
  const file = exercise.meta.learnerFile;
  // While a run goes, the tests stream in; the previous run's list would only confuse.
  const tests = run.status === 'done' ? run.result.tests : run.status === 'running' ? run.tests : [];
  const text = exercise.content[locale] ?? exercise.content.en ?? '';
  const stepTitles = useMemo(() => headingTitles(parseMarkdown(text)), [text]);

  return (
    <section className="results" aria-labelledby="results-heading" data-testid="results">
      <div className="results__header">
        <h2 id="results-heading">{t('results.heading')}</h2>
        <p className={`run-status run-status--${summary.state}`} aria-live="polite" aria-atomic="true" data-testid="run-status" data-status={summary.state} data-seq={run.status === 'idle' ? 0 : run.seq} data-examples={examplesVerdict(summary)}>
          <SummaryText summary={summary} file={file} />
          {summary.state === 'pass' && completed && <span className="run-status__done"> {t('results.completed')}</span>}
        </p>
        {'durationMs' in summary && <span className="hint">{t('results.duration', { ms: Math.round(summary.durationMs) })}</span>}
      </div>
      {summary.state === 'pass' && (
        <Suspense fallback={null}>
          <NextStation exercise={exercise} />
        </Suspense>
      )}
      {summary.state === 'error' && (
        <div className="run-error" data-testid="run-error">
          <pre className="run-error__message">{summary.message}</pre>
          {summary.line !== undefined && summary.kind !== 'spec' && (
            <button type="button" onClick={() => onGoToLine(summary.line as number, summary.column)}>
              {t('results.goToLine', { line: summary.line })}
            </button>
          )}
        </div>
      )}
      {tests.length > 0 && (
        <TestResultList exercise={exercise} tests={tests} stepTitles={stepTitles} onGoToLine={onGoToLine} />
      )}
    </section>
  );
}

/** Once every example test has run and the properties are still checked: their verdict (the bench waits for it). */
function examplesVerdict(summary: RunSummary): 'pass' | 'fail' | undefined {
  if (summary.state !== 'running' || summary.examples === undefined) return undefined;
  return summary.examples.failed === 0 ? 'pass' : 'fail';
}

function SummaryText({ summary, file }: { summary: RunSummary; file: string }) {
  const { t } = useTranslation('exercise');
  switch (summary.state) {
    case 'idle':
      return t('results.idle');
    case 'running':
      if (summary.examples !== undefined) {
        const { total, failed, properties } = summary.examples;
        return failed === 0 ? t('results.examplesPass', { total, count: properties }) : t('results.examplesFail', { failed, total, count: properties });
      }
      return summary.finished === 0 ? t('results.running') : t('results.runningCount', { count: summary.finished });
    case 'pass':
      return t('results.pass', { total: summary.total });
    case 'fail':
      return t('results.fail', { failed: summary.failed, total: summary.total });
    case 'error':
      if (summary.kind === 'syntax' && summary.line !== undefined) return t('results.syntaxError', { file, line: summary.line });
      if (summary.kind === 'load' && summary.line !== undefined) return t('results.loadError', { file, line: summary.line });
      if (summary.kind === 'timeout') return t('results.timeout');
      if (summary.kind === 'spec') return t('results.specError');
      return t('results.error');
  }
}

