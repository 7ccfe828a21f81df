// Opening a scene, the same from the protocol view (its chooser, a scene link) and the presenter's
// stage (its chooser, `t`, a station): the scene is shown, and a stdio scene's run is loaded into
// the stepper with the given drivers.

import { sceneConfig, type Scene } from '../protocol/scenes.ts';
import type { DriverKind } from '../../sandbox/client-driver.ts';
import type { ProtocolServices } from './protocol-services.ts';

/** Shows `scene`; a stdio scene loads its run into the stepper with these drivers (true), an HTTP scene has no stepper run here (false). */
export function openScene(ui: ProtocolServices['ui'], stepper: ProtocolServices['stepper'], scene: Scene, client: DriverKind, register: DriverKind): boolean {
  ui.setScene(scene);
  const run = sceneConfig(scene);
  if (run) stepper.load({ ...run, client, register });
  return run !== null;
}
