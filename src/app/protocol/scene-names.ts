// The protocol view's scene names alone (scenes.ts says what each runs): small enough for the
// router's deep links (step-link.ts) to check a name without loading the stepper's runs.

export const SCENES = ['stdio-handshake', 'stdio-modern', 'stdio-probe', 'http-handshake', 'http-modern', 'http-auth'] as const;
export type Scene = (typeof SCENES)[number];

export const DEFAULT_SCENE: Scene = 'stdio-handshake';

export type SceneTransport = 'stdio' | 'http';

export function sceneTransport(scene: Scene): SceneTransport {
  return scene.startsWith('http-') ? 'http' : 'stdio';
}
