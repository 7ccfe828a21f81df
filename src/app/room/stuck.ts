// Who the instructor should look at first: an attendee is *stuck* when they keep running tests and
// none of those runs passed a test more than before, for `minutes` or longer.

import type { RoomAttendeeView } from '../../runtime/room-messages.ts';

export function isStuck(attendee: RoomAttendeeView, now: number, minutes: number): boolean {
  if (attendee.lastRunAt === null) return false;
  const since = attendee.lastNewPassAt ?? attendee.joinedAt;
  // Their latest run came after their latest progress: they are trying, and it is not moving.
  return attendee.lastRunAt > since && now - since >= minutes * 60_000;
}

/** The grid's order: stuck first (longest first), then everyone else in the order they joined. */
export function sortForGrid(attendees: readonly RoomAttendeeView[], now: number, minutes: number): { attendee: RoomAttendeeView; stuck: boolean }[] {
  const rows = attendees.map((attendee) => ({ attendee, stuck: isStuck(attendee, now, minutes) }));
  const stuckSince = (row: (typeof rows)[number]) => row.attendee.lastNewPassAt ?? row.attendee.joinedAt;
  return rows.sort((a, b) => {
    if (a.stuck !== b.stuck) return a.stuck ? -1 : 1;
    if (a.stuck) return stuckSince(a) - stuckSince(b);
    return a.attendee.joinedAt - b.attendee.joinedAt;
  });
}
