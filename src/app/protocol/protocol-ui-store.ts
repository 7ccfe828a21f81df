// What the protocol view shows besides the stepper's own state: the frame open in the byte
// inspector, the arrow or note a lab card asked to point at, and the scene (scenes.ts) the view shows.

import { createStore, ExternalStore, type Store } from '../store/create-store.ts';
import type { InspectTarget } from './inspect-target.ts';
import { DEFAULT_SCENE, type Scene } from './scenes.ts';

export interface ProtocolUiState {
  inspect: InspectTarget | null;
  /** The frame opened last, kept after the inspector closes: "Ask for help" in a workshop sends it. */
  lastInspected: InspectTarget | null;
  focus: { seq: number; kind: 'arrow' | 'note'; at: number } | null;
  /** One value for transport and eras: a combination the wire does not do cannot be stored. */
  scene: Scene;
}

export class ProtocolUiStore extends ExternalStore<ProtocolUiState> {
  protected readonly store: Store<ProtocolUiState> = createStore<ProtocolUiState>({ inspect: null, lastInspected: null, focus: null, scene: DEFAULT_SCENE });
  private focusCount = 0;

  setScene(scene: Scene): void {
    this.store.setState((state) => (state.scene === scene ? state : { ...state, scene }));
  }

  openInspector(target: InspectTarget): void {
    this.store.setState((state) => ({ ...state, inspect: target, lastInspected: target }));
  }

  closeInspector(): void {
    this.store.setState((state) => (state.inspect === null ? state : { ...state, inspect: null }));
  }

  /** Point at an arrow or a note on the diagram; `at` changes every time so the view scrolls again. */
  focusOn(seq: number, kind: 'arrow' | 'note'): void {
    this.store.setState((state) => ({ ...state, focus: { seq, kind, at: ++this.focusCount } }));
  }

  clearFocus(): void {
    this.store.setState((state) => (state.focus === null ? state : { ...state, focus: null }));
  }
}
