// The tests of a run, in file order (Exercism's shape), each failing one with its message, where
// it failed, expected vs received, and help for its own rule: "Hint" opens the hint for the lesson
// section the test enforces (rules.json), "Read" scrolls the lesson there.

import { memo, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { localizedTestName } from '../../exercise/catalogue.ts';
import { hintForSection } from '../../exercise/hints.ts';
import { shownHints } from '../../exercise/progress-data.ts';
import type { Exercise, Locale } from '../../exercise/types.ts';
import type { TestResult } from '../../sandbox/spec-results.ts';
import { sectionOfTest } from '../../app/exercise/next-hint.ts';
import { diffLineKind } from '../../app/exercise/run-summary.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { useLocale } from '../hooks/use-locale.ts';
import { useStoreSelector } from '../hooks/use-store.ts';
import { ExpectedActual } from '../components/ExpectedActual.tsx';
import { showHint } from './hint-focus.ts';
import { showLessonStep } from './LessonPane.tsx';

export interface TestResultListProps {
  exercise: Exercise;
  tests: readonly TestResult[];
  /** Lesson section id → its heading, in the UI language. */
  stepTitles: Record<string, string>;
  onGoToLine(line: number): void;
}

export function TestResultList({ exercise, tests, stepTitles, onGoToLine }: TestResultListProps) {
  const { t } = useTranslation('exercise');
  const locale = useLocale();
  const exercises = useExercises();
  const file = exercise.meta.learnerFile;
  // A failing test offers the hint for its own lesson section (rules.json), opened like any hint.
  const hints = exercise.hints[locale] ?? exercise.hints.en ?? [];
  const id = exercise.meta.id;
  const shownKey = useStoreSelector(exercises.progress, (state) => {
    const progress = state.exercises[id];
    return progress === undefined ? '' : shownHints(progress).join();
  });
  const opened = useMemo(() => (shownKey === '' ? [] : shownKey.split(',').map(Number)), [shownKey]);
  const openHint = useCallback(
    (index: number) => {
      exercises.revealHint(id, hints.length, index);
      showHint(index);
    },
    [exercises, id, hints.length],
  );

  return (
    <ol className="test-list" aria-label={t('results.listLabel')}>
      {tests.map((test, index) => {
        const section = sectionOfTest(exercise.rules, test);
        return (
          <TestResultItem
            key={index}
            test={test}
            displayName={localizedTestName(exercise, test.name, locale)}
            locale={locale}
            file={file}
            section={section}
            stepTitle={section === undefined ? undefined : stepTitles[section]}
            hint={section === undefined || test.status === 'pass' ? -1 : hintForSection(hints, section, opened)}
            t={t}
            onGoToLine={onGoToLine}
            onHint={openHint}
          />
        );
      })}
    </ol>
  );
}

const STATUS_MARK = { pass: '✓', fail: '✗', error: '!' } as const;

interface TestResultItemProps {
  test: TestResult;
  /** The test's name in the UI language (exercises/NN-slug/test-names.<locale>.json), else `test.name`. */
  displayName: string;
  locale: Locale;
  file: string;
  /** The lesson section the test enforces (rules.json), and its title. */
  section: string | undefined;
  stepTitle: string | undefined;
  /** The hint for that section (index in the hint file), -1 for none or a test that passed. */
  hint: number;
  t: TFunction<'exercise'>;
  onGoToLine(line: number): void;
  onHint(index: number): void;
}

/** One test; results never change once reported, so a streamed run re-renders only the new ones. */
const TestResultItem = memo(function TestResultItem({ test, displayName, locale, file, section, stepTitle, hint, t, onGoToLine, onHint }: TestResultItemProps) {
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
        {hint >= 0 && stepTitle !== undefined && (
          <button type="button" className="link-button test-result__hint" aria-label={t('results.hintFor', { title: stepTitle })} onClick={() => onHint(hint)}>
            {t('results.hint')}
          </button>
        )}
        {section !== undefined && stepTitle !== undefined && (
          <a
            className="test-result__step"
            href={`#lesson-${section}`}
            onClick={(event) => {
              event.preventDefault();
              showLessonStep(section);
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
