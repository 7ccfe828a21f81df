import { describe, expect, it } from 'vitest';
import { sceneHash } from '../protocol/step-link.ts';
import { placeOfStation, sendableStations, stationOf } from './station.ts';

describe('the station an attendee reports', () => {
  it('names the exercise being built, its live scene and its failure cards, and the views off the path', () => {
    expect(stationOf('#workspace', 3)).toBe('exercise-3');
    expect(stationOf('', 1)).toBe('exercise-1');
    expect(stationOf(sceneHash('stdio-handshake', true), 3)).toBe('exercise-3-live');
    expect(stationOf(sceneHash('stdio-handshake', false, true), 2)).toBe('exercise-2-break');
    expect(stationOf('#protocol', 2)).toBe('protocol');
    expect(stationOf('#join=K7QM2X', 2)).toBe('room');
    expect(stationOf('#chapter-loop', null)).toBe('chapter-loop');
    expect(stationOf('', null)).toBe('welcome');
  });

  it('finds the place of every station an instructor can send the class to, and it reads back as that station', () => {
    const stations = sendableStations(7);
    expect(stations).toHaveLength(7 + 7 + 5 + 3);
    for (const station of stations) {
      const place = placeOfStation(station);
      expect(place, station).not.toBeNull();
      expect(stationOf(place!.hash, place!.exercise), station).toBe(station);
    }
    expect(placeOfStation('exercise-1-break')).toBeNull();
    expect(placeOfStation('somewhere')).toBeNull();
  });
});
