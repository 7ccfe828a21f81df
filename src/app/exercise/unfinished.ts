// Whether a scene that runs the learner's own code should say first that the exercise behind it
// does not pass yet: a live scene with a half-written client fails in ways that look like the
// server's fault, so the page says whose code it is and links back to the exercise.

import type { RunState } from './exercise-store.ts';

/**
 * The latest run in this page decides (the code may have changed since the exercise was
 * completed); with no run yet, the saved completed mark does.
 */
export function exerciseUnfinished(completed: boolean, latestRun: RunState): boolean {
  if (latestRun.status === 'done') return latestRun.result.status !== 'pass';
  return !completed;
}
