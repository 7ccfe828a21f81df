// Which hint to open next. Hints are keyed by lesson section (src/exercise/hints.ts), so "the next
// hint" is not the next chunk of the file: it is the hint for the rule after the one the learner
// last asked about, in lesson order, and among those a rule that a test of the latest run fails
// comes first. React-free, so the order is tested without a page.

import type { TestResult } from '../../sandbox/spec-results.ts';
import { sectionsOfTest, type Hint, type LessonRules } from '../../exercise/hints.ts';

/**
 * The index of the hint "Show the next hint" opens, or undefined when every hint is open.
 * `shown` is in the order hints were opened; `lessonOrder` the lesson's section ids; `failing`
 * the sections of the latest run's failing tests.
 */
export function nextHint(hints: readonly Hint[], shown: readonly number[], lessonOrder: readonly string[], failing: readonly string[] = []): number | undefined {
  const closed = hints.map((_, index) => index).filter((index) => !shown.includes(index));
  if (closed.length === 0) return undefined;
  const span = lessonOrder.length + 1;
  const places = (index: number) => (hints[index]?.sections ?? []).map((section) => lessonOrder.indexOf(section)).filter((at) => at >= 0);
  // A hint's place is its earliest section in the lesson; a hint naming none goes after them all.
  const place = (index: number) => {
    const at = places(index);
    return at.length === 0 ? lessonOrder.length : Math.min(...at);
  };
  // Counting on from the rule the last opened hint reaches furthest (another hint for that same
  // rule first), wrapping round to the lesson's start.
  const last = shown[shown.length - 1];
  const reached = last === undefined ? [] : places(last);
  const start = last === undefined ? 0 : reached.length === 0 ? lessonOrder.length : Math.max(...reached);
  const distance = (index: number) => (place(index) - start + span) % span;
  const fails = (index: number) => (hints[index]?.sections ?? []).some((section) => failing.includes(section));
  return [...closed].sort((a, b) => Number(fails(b)) - Number(fails(a)) || distance(a) - distance(b) || a - b)[0];
}

/** The lesson section a test's row links to: its rule in rules.json, its describe block's section otherwise. */
export function sectionOfTest(rules: LessonRules | undefined, test: Pick<TestResult, 'name' | 'step'>): string | undefined {
  return sectionsOfTest(rules, test.name, test.step)[0];
}

/** The sections of the tests that did not pass, in lesson order, each once. */
export function failingSections(rules: LessonRules | undefined, tests: readonly Pick<TestResult, 'name' | 'step' | 'status'>[], lessonOrder: readonly string[]): string[] {
  const failing = new Set(tests.filter((test) => test.status !== 'pass').map((test) => sectionOfTest(rules, test)).filter((section) => section !== undefined));
  return [...lessonOrder.filter((section) => failing.has(section)), ...[...failing].filter((section) => !lessonOrder.includes(section))];
}
