// "Export results": what the instructor keeps after the workshop. The CSV has one row per
// attendee × exercise (all seven, so a spreadsheet's pivot needs no gaps filled); the JSON is the
// whole room — attendees, every acknowledged report, the progress they add up to — without the
// attendees' secret hashes or the room key.

import { ROOM_EXERCISES, type RoomAttendeeView } from '../../src/runtime/room-messages.ts';

export const CSV_COLUMNS = ['name', 'attendee', 'joined_at', 'exercise', 'passed', 'total', 'completed', 'hints', 'reference_used', 'station', 'last_run_at'] as const;

export function resultsCsv(attendees: readonly Omit<RoomAttendeeView, 'connected' | 'following'>[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const attendee of attendees) {
    for (let exercise = 1; exercise <= ROOM_EXERCISES; exercise++) {
      const progress = attendee.exercises[String(exercise)];
      const passed = progress?.passed ?? 0;
      const total = progress?.total ?? 0;
      lines.push(
        [
          attendee.name,
          attendee.attendee,
          isoTime(attendee.joinedAt),
          exercise,
          passed,
          total,
          total > 0 && passed === total ? 'yes' : 'no',
          progress?.hints ?? 0,
          progress?.referenceUsed === true ? 'yes' : 'no',
          attendee.station ?? '',
          attendee.lastRunAt === null ? '' : isoTime(attendee.lastRunAt),
        ]
          .map(csvField)
          .join(','),
      );
    }
  }
  // CRLF, as RFC 4180 has it; a spreadsheet reads either.
  return `${lines.join('\r\n')}\r\n`;
}

/** One CSV field: quoted when it must be, and never a formula a spreadsheet would run. */
export function csvField(value: string | number): string {
  let text = String(value);
  // A display name is plain text: "=HYPERLINK(…)" must not become a live formula in the export.
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
