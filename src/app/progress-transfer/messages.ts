// From a refusal (file or link) to the sentence the learner reads: which file, what is wrong with
// it, and that nothing was changed. Pure, so every reason is tested in both languages.

import type { ProgressFileProblem } from '../../exercise/progress-transfer.ts';
import type { ShareOpenProblem } from '../exercise/exercise-store.ts';
import type { TransferText } from './text.ts';

export function importProblemText(t: TransferText, file: string, problem: ProgressFileProblem | { reason: 'read-failed'; detail: string }): string {
  switch (problem.reason) {
    case 'too-large':
      return t('problems.tooLarge', { file, size: problem.size, limit: problem.limit });
    case 'not-json':
      return t('problems.notJson', { file, detail: problem.detail });
    case 'not-ours':
      return t('problems.notOurs', { file });
    case 'newer-version':
      return t('problems.newerVersion', { file, version: problem.version });
    case 'bad-field':
      return t('problems.badField', { file, field: problem.field });
    case 'read-failed':
      return t('problems.readFailed', { file, detail: problem.detail });
  }
}

export function linkProblemText(t: TransferText, problem: ShareOpenProblem): string {
  switch (problem.reason) {
    case 'damaged':
      return t('linkProblems.damaged');
    case 'newer-version':
      return t('linkProblems.newerVersion', { version: problem.version });
    case 'too-large':
      return t('linkProblems.tooLarge', { size: problem.size, limit: problem.limit });
    case 'unknown-exercise':
      return t('linkProblems.unknownExercise', { id: problem.exerciseId });
  }
}

/** Lines in a text, for "your code (12 lines)": what a learner can check at a glance. */
export function lineCount(code: string): number {
  return code === '' ? 0 : code.split(/\r\n|\r|\n/).length;
}
