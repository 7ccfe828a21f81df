// The protocol view's one choice: the scene (app/protocol/scenes.ts). Native radios in one
// group, so the arrow keys move between scenes and Tab reaches the group once.

import { SCENES, type Scene } from '../../app/protocol/scenes.ts';
import { useProtocolText } from './use-protocol-text.ts';

export interface SceneChooserProps {
  /** The scene shown; null while a lab or era card's own run is loaded. */
  checked: Scene | null;
  disabled: boolean;
  onChoose(scene: Scene): void;
}

export function SceneChooser({ checked, disabled, onChoose }: SceneChooserProps) {
  const t = useProtocolText();
  return (
    <fieldset className="inline-radios scene-chooser" data-testid="scene-chooser" disabled={disabled}>
      <legend>{t('scenes.label')}</legend>
      {SCENES.map((scene) => (
        <label key={scene}>
          <input type="radio" name="protocol-scene" value={scene} checked={checked === scene} onChange={() => onChoose(scene)} />
          {t(`scenes.${scene}`)}
        </label>
      ))}
    </fieldset>
  );
}
