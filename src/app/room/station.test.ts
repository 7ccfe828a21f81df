import { SCENES } from '../protocol/scene-names.ts';
import { describe, expect, it } from 'vitest';
import { parseSceneHash, sceneHash } from '../protocol/step-link.ts';
import { FOLLOW_STATION, placeOfStation, sceneOfStation, sceneStation, sendableStations, stationOf } from './station.ts';

describe('the station an attendee reports', () => {
  it('names the exercise being built, its live scene and its failure cards, and the views off the path', () => {
    expect(stationOf('#workspace', 3)).toBe('exercise-3');
    expect(stationOf('', 1)).toBe('exercise-1');
    expect(stationOf(sceneHash('stdio-handshake', true), 3)).toBe('exercise-3-live');
    expect(stationOf(sceneHash('stdio-handshake', false, true), 2)).toBe('exercise-2-break');
    expect(stationOf('#protocol', 2)).toBe('protocol');
    expect(stationOf(sceneHash('stdio-modern'), 2)).toBe('scene-stdio-modern');
    expect(stationOf(sceneHash('http-handshake'), null)).toBe('scene-http-handshake');
    expect(stationOf('#join=K7QM2X', 2)).toBe('room');
    expect(stationOf('#chapter-loop', null)).toBe('chapter-loop');
    expect(stationOf('', null)).toBe('welcome');
  });

  it('finds the place of every station an instructor can send the class to, and it reads back as that station', () => {
    const stations = sendableStations(7);
    expect(stations).toHaveLength(7 + 7 + 5 + SCENES.length + 3 + 1);
    // The presenter's screen is a follow view beside the attendee's work, not a place in this page.
    expect(stations.at(-1)).toBe(FOLLOW_STATION);
    expect(placeOfStation(FOLLOW_STATION)).toBeNull();
    for (const station of stations.slice(0, -1)) {
      const place = placeOfStation(station);
      expect(place, station).not.toBeNull();
      expect(stationOf(place!.hash, place!.exercise), station).toBe(station);
    }
    expect(placeOfStation('exercise-1-break')).toBeNull();
    expect(placeOfStation('somewhere')).toBeNull();
  });

  it('sends the class to a step of a stdio scene, and the protocol view reads that step from the address', () => {
    const station = sceneStation('stdio-modern', 4);
    expect(station).toBe('scene-stdio-modern-step-4');
    expect(sceneOfStation(station)).toEqual({ scene: 'stdio-modern', step: 4 });
    const place = placeOfStation(station);
    expect(place).toEqual({ exercise: null, hash: '#protocol/scene/stdio-modern/step/4' });
    expect(parseSceneHash(place!.hash)).toEqual({ scene: 'stdio-modern', yours: false, breakIt: false, step: 4 });
    // The HTTP stepper's steps are real requests, one by one: the room sends the class to its start.
    expect(sceneStation('http-modern', 3)).toBe('scene-http-modern');
    expect(sceneOfStation('scene-http-modern-step-3')).toBeNull();
    expect(sceneOfStation('scene-nowhere')).toBeNull();
  });
});
