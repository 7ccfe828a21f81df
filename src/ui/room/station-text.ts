// A station and a duration as the room's people read them, in their language.
import type { useTranslation } from 'react-i18next';

export type RoomT = ReturnType<typeof useTranslation<'room'>>['t'];

export function stationText(t: RoomT, station: string | null): string {
  if (station === null) return '–';
  const match = /^exercise-(\d)(?:-(live|break))?$/.exec(station);
  if (match) return t(`station.${match[2] ?? 'build'}` as 'station.build', { exercise: Number(match[1]) });
  const known = ['welcome', 'protocol', 'chapter-loop', 'trace', 'preflight', 'room'];
  return known.includes(station) ? t(`station.view.${station}` as 'station.view.welcome') : station;
}

export function minutesText(t: RoomT, ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  return minutes === 0 ? t('grid.lessThanMinute') : t('grid.minutes', { count: minutes });
}
