import { describe, expect, it } from 'vitest';
import { eraCardConfig } from './era-cards.ts';
import { eraConfig } from './era-runs.ts';
import { SCENES, sceneConfig, sceneEra, sceneHasHandshake, sceneOfConfig, sceneTransport } from './scenes.ts';
import { HANDSHAKE_CONFIG } from './stepper-store.ts';

describe('scenes', () => {
  it('are each one transport and one era, never two scenes alike (but the sign-in, which puts authorization in front of an HTTP session)', () => {
    const plain = SCENES.filter((scene) => scene !== 'http-auth');
    const pairs = plain.map((scene) => `${sceneTransport(scene)} ${sceneEra(scene)}`);
    expect(new Set(pairs).size).toBe(plain.length);
    expect(pairs).toEqual(['stdio handshake', 'stdio modern', 'stdio probe', 'http handshake', 'http modern']);
    expect(`${sceneTransport('http-auth')} ${sceneEra('http-auth')}`).toBe('http handshake');
  });

  it('say whether an initialize crosses the wire (the probe falls back, so it does)', () => {
    expect(SCENES.filter(sceneHasHandshake)).toEqual(['stdio-handshake', 'stdio-probe', 'http-handshake', 'http-auth']);
  });

  it('give every stdio scene a stepper run that the scene reads back, and none to an HTTP scene', () => {
    for (const scene of SCENES) {
      const config = sceneConfig(scene);
      if (sceneTransport(scene) === 'http') expect(config).toBeNull();
      else expect(sceneOfConfig(config!)).toBe(scene);
    }
  });

  it('run the 2026-07-28 client without initialize, and the probe against a handshake-only server', () => {
    const modern = sceneConfig('stdio-modern')!;
    expect(modern.eraClient).toEqual({ mode: 'modern' });
    expect(modern.plan.map((step) => step.kind)).not.toContain('initialize');
    expect(sceneConfig('stdio-probe')).toMatchObject({ eraClient: { mode: 'probe' }, serverEra: 'legacy' });
    expect(sceneConfig('stdio-handshake')!.eraClient).toBeUndefined();
  });

  it('keep the scene whoever drives, and name none for a card run or a combination no scene has', () => {
    expect(sceneOfConfig({ ...HANDSHAKE_CONFIG, client: 'learner', register: 'learner' })).toBe('stdio-handshake');
    expect(sceneOfConfig({ ...sceneConfig('stdio-modern')!, client: 'learner' })).toBe('stdio-modern');
    expect(sceneOfConfig({ ...HANDSHAKE_CONFIG, scenario: 'id-pairing/out-of-order' })).toBeNull();
    expect(sceneOfConfig(eraCardConfig('legacy-client'))).toBeNull();
    expect(sceneOfConfig(eraCardConfig('version-retry'))).toBeNull();
    // The probe against the dual-era server finds 2026-07-28 at once: not the "then fall back" scene.
    expect(sceneOfConfig(eraConfig('probe', 'dual'))).toBeNull();
  });
});
