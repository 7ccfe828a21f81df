// What the protocol view shows besides the stepper's own state: the frame open in the byte
// inspector, and the arrow or note a lab card asked to point at.

import { createStore, type Store } from '../store/create-store.ts';
import type { InspectTarget } from './inspect-target.ts';

export interface ProtocolUiState {
  inspect: InspectTarget | null;
  focus: { seq: number; kind: 'arrow' | 'note'; at: number } | null;
}

export class ProtocolUiStore {
  readonly store: Store<ProtocolUiState> = createStore<ProtocolUiState>({ inspect: null, focus: null });
  private focusCount = 0;

  getSnapshot = (): ProtocolUiState => this.store.getSnapshot();
  subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);

  openInspector(target: InspectTarget): void {
    this.store.setState((state) => ({ ...state, inspect: target }));
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
