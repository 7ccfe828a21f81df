// The spec runner as the exercise engine uses it: an exercise and the learner's code in, a result
// out. The sandbox's SpecRunner runs plain requests; this turns an exercise into one.

import { protocolIdOfPath } from '../sandbox/protocol-modules.ts';
import type { RunOptions, SpecRunner } from '../sandbox/spec-runner.ts';
import type { RunResult, SpecRunRequest } from '../sandbox/spec-results.ts';
import { solutionEntry } from './catalogue.ts';
import type { Exercise } from './types.ts';

/** The spec runner as the exercise store uses it (SpecRunner in the page, a fake in tests). */
export interface ExerciseRunner {
  run(exercise: Exercise, learnerSource: string, options?: RunOptions): Promise<RunResult>;
  warmUp(): void;
}

/** The request for one exercise and the learner's current code. */
export function requestFor(exercise: Exercise, learnerSource: string): SpecRunRequest {
  const request: SpecRunRequest = { specSource: exercise.spec, learnerSource, learnerFile: exercise.meta.learnerFile, steps: exercise.meta.steps };
  const location = protocolIdOfPath(solutionEntry(exercise.meta));
  if (location) request.learnerModuleId = location;
  return request;
}

/** Runs an exercise's spec against the learner's code on `runner`. Never rejects. */
export function exerciseRunner(runner: Pick<SpecRunner, 'runRequest' | 'warmUp'>): ExerciseRunner {
  return {
    run: (exercise, learnerSource, options = {}) => runner.runRequest(requestFor(exercise, learnerSource), options),
    warmUp: () => runner.warmUp(),
  };
}
