import { describe, expect, it } from 'vitest';
import { viewOfHash } from '../router.ts';
import { SCENES } from './scene-names.ts';
import { isProtocolHash, parseSceneHash, parseStepHash, sceneHash, stepHash } from './step-link.ts';

describe('protocol view deep links', () => {
  it('a step link names a count of steps, and only that', () => {
    expect(parseStepHash(stepHash(3))).toBe(3);
    expect(parseStepHash('#protocol/step/x')).toBeNull();
    expect(parseStepHash('#protocol')).toBeNull();
  });

  it('a scene link names a scene, whether the learner drives it and whether its failure cards open; all round-trip, and open the protocol view', () => {
    for (const scene of SCENES) {
      for (const yours of [false, true]) {
        for (const [breakIt, step] of [[false, null], [true, null], [false, 0], [false, 12]] as const) {
          const hash = sceneHash(scene, yours, breakIt, step);
          expect(parseSceneHash(hash)).toEqual({ scene, yours, breakIt, step });
          expect(isProtocolHash(hash)).toBe(true);
          expect(viewOfHash(hash)).toBe('protocol');
        }
      }
    }
    expect(sceneHash('http-handshake', true)).toBe('#protocol/scene/http-handshake/yours');
    expect(sceneHash('stdio-handshake', false, true)).toBe('#protocol/scene/stdio-handshake/break');
    expect(sceneHash('stdio-modern', false, false, 3)).toBe('#protocol/scene/stdio-modern/step/3');
  });

  it('a scene link that names no scene, or has more after it, is not one', () => {
    for (const hash of ['#protocol/scene/http-probe', '#protocol/scene/', '#protocol/scene/stdio-modern/theirs', '#protocol/scene/stdio-modern/yours/x', '#protocol/scene/stdio-modern/break/yours', '#protocol/scene/stdio-modern/break/x', '#protocol/step/2', '#protocol/scene/stdio-modern/step/', '#protocol/scene/stdio-modern/step/1234', '#protocol/scene/stdio-modern/step/2/break']) {
      expect(parseSceneHash(hash), hash).toBeNull();
    }
  });
});
