import { describe, expect, it } from 'vitest';
import type { RoomAttendeeView } from '../../runtime/room-messages.ts';
import { isStuck, sortForGrid } from './stuck.ts';

const MINUTE = 60_000;
function attendee(name: string, fields: Partial<RoomAttendeeView>): RoomAttendeeView {
  return { attendee: name, name, joinedAt: 0, connected: true, following: false, station: 'exercise-1', stationSince: 0, lastRunAt: null, lastNewPassAt: null, exercises: {}, ...fields };
}

describe('stuck', () => {
  it('is running tests with no new passing test for N minutes', () => {
    const trying = attendee('a', { lastRunAt: 11 * MINUTE, lastNewPassAt: 1 * MINUTE });
    expect(isStuck(trying, 11 * MINUTE, 10)).toBe(true);
    expect(isStuck(trying, 10 * MINUTE, 10)).toBe(false);
    expect(isStuck(trying, 11 * MINUTE, 15)).toBe(false);
  });

  it('is not reading the lesson without running anything, nor a run that just passed more', () => {
    expect(isStuck(attendee('reading', { lastRunAt: null }), 60 * MINUTE, 10)).toBe(false);
    expect(isStuck(attendee('moving', { lastRunAt: 30 * MINUTE, lastNewPassAt: 30 * MINUTE }), 60 * MINUTE, 10)).toBe(false);
    // Never passed a test: counted from when they joined.
    expect(isStuck(attendee('new', { joinedAt: 5 * MINUTE, lastRunAt: 14 * MINUTE }), 15 * MINUTE, 10)).toBe(true);
  });

  it('sorts the stuck first, longest stuck first, then everyone in the order they joined', () => {
    const rows = sortForGrid(
      [
        attendee('fine-late', { joinedAt: 3 }),
        attendee('stuck-recent', { joinedAt: 1, lastRunAt: 40 * MINUTE, lastNewPassAt: 20 * MINUTE }),
        attendee('fine-early', { joinedAt: 2 }),
        attendee('stuck-long', { joinedAt: 4, lastRunAt: 40 * MINUTE, lastNewPassAt: 5 * MINUTE }),
      ],
      40 * MINUTE,
      10,
    );
    expect(rows.map((row) => [row.attendee.name, row.stuck])).toEqual([
      ['stuck-long', true],
      ['stuck-recent', true],
      ['fine-early', false],
      ['fine-late', false],
    ]);
  });
});
