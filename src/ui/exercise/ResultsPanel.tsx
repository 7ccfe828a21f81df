import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { localizedTestName } from '../../exercise/catalogue.ts';
import type { Exercise, Locale } from '../../exercise/types.ts';
import type { TestResult } from '../../sandbox/spec-results.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { useExerciseText } from '../hooks/use-exercise-text.ts';
import { useLocale } from '../hooks/use-locale.ts';
import { headingTitles, parseMarkdown } from '../../app/exercise/markdown.ts';
import { diffLineKind, summarizeRun, type RunSummary } from '../../app/exercise/run-summary.ts';
import type { RunState } from '../../app/exercise/exercise-store.ts';
import { showLessonStep } from './LessonPane.tsx';
import { ExpectedActual } from '../components/ExpectedActual.tsx';
import { NextStation } from './NextStation.tsx';

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
        <p className={`run-status run-status--${summary.state}`} aria-live="polite" aria-atomic="true" data-testid="run-status" data-status={summary.state} data-seq={run.status === 'idle' ? 0 : run.seq}>
          <SummaryText summary={summary} file={file} />
          {summary.state === 'pass' && completed && <span className="run-status__done"> {t('results.completed')}</span>}
        </p>
        {'durationMs' in summary && <span className="hint">{t('results.duration', { ms: Math.round(summary.durationMs) })}</span>}
      </div>
      {summary.state === 'pass' && <NextStation exercise={exercise} />}
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
        <ol className="test-list" aria-label={t('results.listLabel')}>
          {tests.map((test, index) => (
            <TestResultItem
              key={index}
              test={test}
              displayName={localizedTestName(exercise, test.name, locale)}
              locale={locale}
              file={file}
              stepTitle={test.step === undefined ? undefined : stepTitles[test.step]}
              t={t}
              onGoToLine={onGoToLine}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

function SummaryText({ summary, file }: { summary: RunSummary; file: string }) {
  const { t } = useTranslation('exercise');
  switch (summary.state) {
    case 'idle':
      return t('results.idle');
    case 'running':
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

const STATUS_MARK = { pass: '✓', fail: '✗', error: '!' } as const;

interface TestResultItemProps {
  test: TestResult;
  /** The test's name in the UI language (exercises/NN-slug/test-names.<locale>.json), else `test.name`. */
  displayName: string;
  locale: Locale;
  file: string;
  stepTitle: string | undefined;
  t: TFunction<'exercise'>;
  onGoToLine(line: number): void;
}

/** One test; results never change once reported, so a streamed run re-renders only the new ones. */
const TestResultItem = memo(function TestResultItem({ test, displayName, locale, file, stepTitle, t, onGoToLine }: TestResultItemProps) {
  const failed = test.status !== 'pass';
  return (
    <li className={`test-result test-result--${test.status}`} data-testid="test-result" data-status={test.status}>
      <div className="test-result__head">
        <span className={`test-result__badge test-result__badge--${test.status}`}>
          <span aria-hidden="true">{STATUS_MARK[test.status]}</span> {t(`results.status.${test.status}`)}
        </span>
        {displayName === test.name ? (
          <span className="test-result__name">{test.name}</span>
        ) : (
          // The English name stays in sight: it is what `npm run exercise -- check` and the spec print.
          <span className="test-result__name" lang={locale}>
            {displayName}
            <span className="test-result__name-original hint" lang="en">
              {test.name}
            </span>
          </span>
        )}
        {test.step !== undefined && stepTitle !== undefined && (
          <a
            className="test-result__step"
            href={`#lesson-${test.step}`}
            onClick={(event) => {
              event.preventDefault();
              showLessonStep(test.step as string);
            }}
          >
            {t('results.step', { title: stepTitle })}
          </a>
        )}
      </div>
      {failed && test.message !== undefined && <pre className="test-result__message">{test.message}</pre>}
      {failed && test.learnerLine !== undefined && (
        <button type="button" className="link-button" onClick={() => onGoToLine(test.learnerLine as number)}>
          {t('results.learnerLine', { line: test.learnerLine, file })}
        </button>
      )}
      {failed && <Comparison test={test} t={t} />}
      <details className="test-result__code">
        <summary>{t('results.testCode')}</summary>
        <pre>
          <code>{test.code}</code>
        </pre>
      </details>
    </li>
  );
});

function Comparison({ test, t }: { test: TestResult; t: TFunction<'exercise'> }) {
  if (test.diff !== undefined) {
    return (
      <figure className="test-result__diff">
        <figcaption>
          {t('results.diff')} <span className="hint">({t('results.diffLegend')})</span>
        </figcaption>
        <pre>
          {test.diff.split('\n').map((line, index) => (
            <span key={index} className={`diff-line diff-line--${diffLineKind(line)}`}>
              {line}
              {'\n'}
            </span>
          ))}
        </pre>
      </figure>
    );
  }
  return <ExpectedActual expected={test.expected} actual={test.actual} expectedLabel={t('results.expected')} actualLabel={t('results.actual')} />;
}
