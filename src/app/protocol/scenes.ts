// The protocol view's scenes: the only combinations of transport, client era and server era the
// view offers, each one a conversation the live hosts really run. One value replaces three
// switches that could disagree (an HTTP transport with a stdio-only era, a 2026-07-28 client
// drawn with a handshake): a combination the wire does not do has no name here.
//
//   stdio-handshake  exercise 3's McpClient, initialize first, against the dual-era echo server
//   stdio-modern     the dual-era client pinned to 2026-07-28: server/discover, `_meta` on every request
//   stdio-probe      the dual-era client probing a handshake-era-only server, then falling back
//   http-handshake   a Streamable HTTP session: initialize, session id, GET stream, DELETE
//   http-modern      2026-07-28 over HTTP: POST only, `_meta`, Mcp-Method/Mcp-Name, no session
//   http-auth        a Streamable HTTP session that must sign in first: OAuth 2.1 as MCP specifies it

import { eraConfig, type EraChoice } from './era-runs.ts';
import type { RunConfig } from './stepper-types.ts';

import { SCENES, type Scene } from './scene-names.ts';

export { DEFAULT_SCENE, SCENES, sceneTransport, type Scene, type SceneTransport } from './scene-names.ts';

/** The era the scene's client speaks (probe: it finds out on the wire). */
export function sceneEra(scene: Scene): EraChoice {
  return scene.endsWith('-modern') ? 'modern' : scene.endsWith('-probe') ? 'probe' : 'handshake';
}

/** Whether an `initialize` crosses the wire in this scene (the probe's fallback sends one). */
export function sceneHasHandshake(scene: Scene): boolean {
  return sceneEra(scene) !== 'modern';
}

/** Where a scene's failure cards are: the stdio lab, the era cards, the HTTP cards, the sign-in's cards; none in HTTP · 2026-07-28 (they break a session, and it has none). */
export type SceneCards = 'lab' | 'era' | 'http' | 'auth';

export function sceneCards(scene: Scene): SceneCards | null {
  switch (scene) {
    case 'stdio-handshake':
      return 'lab';
    case 'stdio-modern':
    case 'stdio-probe':
      return 'era';
    case 'http-handshake':
      return 'http';
    case 'http-auth':
      return 'auth';
    default:
      return null;
  }
}

/** The stdio stepper's run for a stdio scene. The probe meets a handshake-only server: that is what makes it fall back. */
export function sceneConfig(scene: Scene): RunConfig | null {
  switch (scene) {
    case 'stdio-handshake':
      return eraConfig('handshake', 'dual');
    case 'stdio-modern':
      return eraConfig('modern', 'dual');
    case 'stdio-probe':
      return eraConfig('probe', 'legacy');
    default:
      return null;
  }
}

/**
 * The stdio scene a stepper config runs, or null when it runs none (a failure or era card's run,
 * which the stepper names itself). Who drives (reference or the learner) does not change the scene.
 */
export function sceneOfConfig(config: RunConfig): Scene | null {
  if (config.scenario !== null || config.eraClient?.versions !== undefined) return null;
  for (const scene of SCENES) {
    const candidate = sceneConfig(scene);
    if (candidate === null) continue;
    if (candidate.plan === config.plan && candidate.eraClient?.mode === config.eraClient?.mode && (candidate.serverEra ?? 'dual') === (config.serverEra ?? 'dual')) return scene;
  }
  return null;
}
