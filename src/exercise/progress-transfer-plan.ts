// What importing a progress file would change, exercise by exercise, and the two ways to do it:
//
// * replace: the learner's progress becomes exactly the file's (the other machine's state).
// * merge:   nothing of theirs is lost: code comes from the file only where they still have the
//            starter, completed marks are kept from either side, hints take the larger count.
//
// Either way the page keeps the progress from before the import (ProgressStore.replaceAll), so an
// import can be undone; the plan is what the learner reads before choosing.

import { hintFields, shownHints, type ExerciseProgress, type StoredProgress } from './progress-data.ts';

export type ImportMode = 'replace' | 'merge';

export type ExerciseChange =
  /** The file has code where the learner has the starter: both modes take it. */
  | 'code-added'
  /** Both have code and it differs: replace takes the file's, merge keeps theirs. */
  | 'code-differs'
  /** The learner has code, the file has the starter: replace goes back to the starter, merge keeps theirs. */
  | 'code-removed'
  /** Both modes add the mark. */
  | 'completed-added'
  /** Replace drops the learner's mark; merge keeps it. */
  | 'completed-removed'
  /** More hints revealed in the file: both modes show them. */
  | 'hints-more'
  /** Fewer in the file: replace hides some again; merge keeps theirs. */
  | 'hints-fewer'
  /** The file took the reference solution where the learner did not: both modes mark it. */
  | 'reference-added'
  /** The learner took the reference and the file did not: replace drops the mark; merge keeps it. */
  | 'reference-removed';

export interface ExercisePlan {
  id: string;
  /** False for an id this version of the playground does not have (kept, but not shown). */
  known: boolean;
  changes: ExerciseChange[];
}

export interface ImportPlan {
  /** Exercises where something would change, in catalogue order, then unknown ids. */
  exercises: ExercisePlan[];
  /** Exercises where the file says exactly what the learner has. */
  unchanged: number;
  /** Replace would lose code the learner wrote (merge never does). */
  replaceLosesCode: boolean;
  /** The changes replace would make are exactly merge's (nothing of the learner's is dropped). */
  modesAgree: boolean;
}

const NOTHING: ExerciseProgress = { completed: false, hintsRevealed: 0 };

/** Only what replace changes but merge does not. */
const REPLACE_ONLY: ReadonlySet<ExerciseChange> = new Set(['code-differs', 'code-removed', 'completed-removed', 'hints-fewer', 'reference-removed']);

export function planImport(current: StoredProgress, incoming: StoredProgress, knownIds: readonly string[]): ImportPlan {
  const known = new Set(knownIds);
  const ids = [...knownIds.filter((id) => id in current.exercises || id in incoming.exercises), ...unique([...Object.keys(current.exercises), ...Object.keys(incoming.exercises)]).filter((id) => !known.has(id))];
  const exercises: ExercisePlan[] = [];
  let unchanged = 0;
  for (const id of ids) {
    const changes = changesFor(current.exercises[id] ?? NOTHING, incoming.exercises[id] ?? NOTHING);
    if (changes.length === 0) unchanged += 1;
    else exercises.push({ id, known: known.has(id), changes });
  }
  const all = exercises.flatMap((plan) => plan.changes);
  return {
    exercises,
    unchanged,
    replaceLosesCode: all.some((change) => change === 'code-differs' || change === 'code-removed'),
    modesAgree: !all.some((change) => REPLACE_ONLY.has(change)),
  };
}

function changesFor(mine: ExerciseProgress, theirs: ExerciseProgress): ExerciseChange[] {
  const changes: ExerciseChange[] = [];
  if (mine.code === undefined && theirs.code !== undefined) changes.push('code-added');
  else if (mine.code !== undefined && theirs.code === undefined) changes.push('code-removed');
  else if (mine.code !== theirs.code) changes.push('code-differs');
  if (!mine.completed && theirs.completed) changes.push('completed-added');
  else if (mine.completed && !theirs.completed) changes.push('completed-removed');
  if (theirs.hintsRevealed > mine.hintsRevealed) changes.push('hints-more');
  else if (theirs.hintsRevealed < mine.hintsRevealed) changes.push('hints-fewer');
  if (mine.referenceUsed !== true && theirs.referenceUsed === true) changes.push('reference-added');
  else if (mine.referenceUsed === true && theirs.referenceUsed !== true) changes.push('reference-removed');
  return changes;
}

export function applyImport(current: StoredProgress, incoming: StoredProgress, mode: ImportMode): StoredProgress {
  if (mode === 'replace') return { version: incoming.version, exercises: { ...incoming.exercises } };
  const exercises: Record<string, ExerciseProgress> = {};
  for (const id of unique([...Object.keys(current.exercises), ...Object.keys(incoming.exercises)])) {
    exercises[id] = mergeOne(current.exercises[id] ?? NOTHING, incoming.exercises[id] ?? NOTHING);
  }
  return { version: current.version, exercises };
}

function mergeOne(mine: ExerciseProgress, theirs: ExerciseProgress): ExerciseProgress {
  // Every hint either side opened, mine first in the order I opened them.
  const mineShown = shownHints(mine);
  const merged: ExerciseProgress = { completed: mine.completed || theirs.completed, ...hintFields([...mineShown, ...shownHints(theirs).filter((hint) => !mineShown.includes(hint))]) };
  const code = mine.code ?? theirs.code;
  if (code !== undefined) merged.code = code;
  // Either side took the reference: the merged pass is not all the learner's own.
  if (mine.referenceUsed === true || theirs.referenceUsed === true) merged.referenceUsed = true;
  // The first time either side passed: that is when the exercise was done.
  const dates = [mine.completed ? mine.completedAt : undefined, theirs.completed ? theirs.completedAt : undefined].filter((date): date is string => date !== undefined);
  const earliest = dates.sort((a, b) => Date.parse(a) - Date.parse(b))[0];
  if (merged.completed && earliest !== undefined) merged.completedAt = earliest;
  return merged;
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)];
}
