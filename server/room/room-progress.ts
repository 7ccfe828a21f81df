// The class's progress over time, for the instructor's chart: after each join and each exercise
// an attendee completes (a run with every test passing, the first time), how many have joined and
// how many have completed each exercise. Computed from the room file's reports, so a restarted
// bridge draws the whole workshop, and so do the exports.

import type { RoomProgress } from '../../src/runtime/room-messages.ts';

export interface ProgressInput {
  attendees: readonly { attendee: string; joinedAt: number }[];
  /** Runs as reported, in any order. */
  runs: readonly { attendee: string; at: number; exercise: number; passed: number; total: number }[];
  exercises: number;
  /** The chart ends now: the lines reach the right edge. */
  now: number;
}

export function progressOverTime({ attendees, runs, exercises, now }: ProgressInput): RoomProgress {
  type Event = { at: number; exercise: number | null };
  const events: Event[] = attendees.map((attendee) => ({ at: attendee.joinedAt, exercise: null }));
  const done = new Set<string>();
  for (const run of [...runs].sort((a, b) => a.at - b.at)) {
    const key = `${run.attendee} ${run.exercise}`;
    if (run.total === 0 || run.passed !== run.total || done.has(key) || run.exercise < 1 || run.exercise > exercises) continue;
    done.add(key);
    events.push({ at: run.at, exercise: run.exercise });
  }
  events.sort((a, b) => a.at - b.at);
  const progress: RoomProgress = { times: [], joined: [], completed: Array.from({ length: exercises }, () => []) };
  let joined = 0;
  const completed = new Array<number>(exercises).fill(0);
  const point = (at: number) => {
    // Events in the same millisecond are one point.
    if (progress.times.at(-1) === at) {
      progress.times.pop();
      progress.joined.pop();
      for (const line of progress.completed) line.pop();
    }
    progress.times.push(at);
    progress.joined.push(joined);
    completed.forEach((count, index) => progress.completed[index]!.push(count));
  };
  for (const event of events) {
    if (event.exercise === null) joined++;
    else completed[event.exercise - 1]!++;
    point(event.at);
  }
  if (events.length > 0 && now > progress.times.at(-1)!) point(now);
  return progress;
}
