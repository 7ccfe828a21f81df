import { describe, expect, it } from 'vitest';
import { progressOverTime } from './room-progress.ts';

const attendees = [
  { attendee: 'a', joinedAt: 1_000 },
  { attendee: 'b', joinedAt: 2_000 },
];

describe('the class’s progress over time', () => {
  it('counts joins and each attendee’s first complete run of an exercise, in time order, up to now', () => {
    const runs = [
      // Out of order, as reports arrive after a reconnect.
      { attendee: 'b', at: 6_000, exercise: 1, passed: 37, total: 37 },
      { attendee: 'a', at: 3_000, exercise: 1, passed: 12, total: 37 },
      { attendee: 'a', at: 4_000, exercise: 1, passed: 37, total: 37 },
      // A second complete run, and a later broken one, do not count again or take it back.
      { attendee: 'a', at: 5_000, exercise: 1, passed: 37, total: 37 },
      { attendee: 'a', at: 5_500, exercise: 1, passed: 3, total: 37 },
      { attendee: 'a', at: 7_000, exercise: 2, passed: 20, total: 20 },
      // No tests is not complete.
      { attendee: 'b', at: 7_500, exercise: 3, passed: 0, total: 0 },
    ];
    const progress = progressOverTime({ attendees, runs, exercises: 3, now: 9_000 });
    expect(progress.times).toEqual([1_000, 2_000, 4_000, 6_000, 7_000, 9_000]);
    expect(progress.joined).toEqual([1, 2, 2, 2, 2, 2]);
    expect(progress.completed).toEqual([
      [0, 0, 1, 2, 2, 2],
      [0, 0, 0, 0, 1, 1],
      [0, 0, 0, 0, 0, 0],
    ]);
  });

  it('makes one point of events in the same millisecond, and nothing of an empty room', () => {
    const progress = progressOverTime({ attendees: [{ attendee: 'a', joinedAt: 1_000 }, { attendee: 'b', joinedAt: 1_000 }], runs: [], exercises: 1, now: 1_000 });
    expect(progress).toEqual({ times: [1_000], joined: [2], completed: [[0]] });
    expect(progressOverTime({ attendees: [], runs: [], exercises: 2, now: 5 })).toEqual({ times: [], joined: [], completed: [[], []] });
  });
});
