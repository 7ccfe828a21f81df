// A station and a duration as the room's people read them, in their language.
import type { useTranslation } from 'react-i18next';
import { sceneOfStation } from '../../app/room/station.ts';

export type RoomT = ReturnType<typeof useTranslation<'room'>>['t'];

export function stationText(t: RoomT, station: string | null): string {
  if (station === null) return '–';
  const match = /^exercise-(\d)(?:-(live|break))?$/.exec(station);
  if (match) return t(`station.${match[2] ?? 'build'}` as 'station.build', { exercise: Number(match[1]) });
  const scene = sceneOfStation(station);
  if (scene !== null) {
    const name = t(`station.scenes.${scene.scene}` as 'station.scenes.stdio-handshake');
    return scene.step === null ? t('station.scene', { scene: name }) : t('station.sceneStep', { scene: name, step: scene.step });
  }
  const known = ['welcome', 'protocol', 'chapter-loop', 'trace', 'preflight', 'room', 'follow'];
  return known.includes(station) ? t(`station.view.${station}` as 'station.view.welcome') : station;
}

export function minutesText(t: RoomT, ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  return minutes === 0 ? t('grid.lessThanMinute') : t('grid.minutes', { count: minutes });
}
