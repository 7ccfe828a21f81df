// Presenter keys → commands. Pure, so the rules (what a key does where the focus is) are tested
// without a browser. Presentation clickers send PageDown / PageUp, so those step too.

export type PresenterCommand = 'next' | 'back' | 'restart' | 'end' | 'fullscreen' | 'notes' | 'help' | 'close-help' | 'inspect' | 'scene';

/** Where the key was pressed: a form field and an open dialog keep their own keys. */
export type FocusKind = 'field' | 'dialog' | 'control' | 'other';

export interface KeyInput {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  focus: FocusKind;
  helpOpen: boolean;
}

export function commandForKey(input: KeyInput): PresenterCommand | null {
  // Browser and system shortcuts (Ctrl+F, Cmd+←) stay theirs.
  if (input.ctrlKey || input.metaKey || input.altKey) return null;
  if (input.focus === 'field' || input.focus === 'dialog') return null;
  // Space on a button or link presses it: that stays the control's. (Home and End would only
  // scroll the page, so they keep their presenter meaning even after a click on, say, the
  // language switch.)
  const onControl = input.focus === 'control';
  switch (input.key) {
    case 'ArrowRight':
    case 'PageDown':
      return 'next';
    case ' ':
    case 'Spacebar':
      return onControl ? null : 'next';
    case 'ArrowLeft':
    case 'PageUp':
      return 'back';
    case 'Home':
      return 'restart';
    case 'End':
      return 'end';
    case 'f':
    case 'F':
      return 'fullscreen';
    case 'n':
    case 'N':
      return 'notes';
    case 'i':
    case 'I':
      return 'inspect';
    case 't':
    case 'T':
      return 'scene';
    case '?':
      return 'help';
    case 'Escape':
      return input.helpOpen ? 'close-help' : null;
    default:
      return null;
  }
}

/** Classify the element that has focus (the event's target). */
export function focusKindOf(target: Element | null): FocusKind {
  if (target === null) return 'other';
  if (target.closest('dialog')) return 'dialog';
  if (target.closest('input, select, textarea, [contenteditable="true"], [contenteditable=""]')) return 'field';
  if (target.closest('button, a[href], [role="button"], summary')) return 'control';
  return 'other';
}

/** The keys, in the order the help lists them; `key` names the help text, `keys` are shown as typed. */
export const KEY_HELP: ReadonlyArray<{ keys: readonly string[]; command: Exclude<PresenterCommand, 'close-help'> }> = [
  { keys: ['→', 'Space', 'PageDown'], command: 'next' },
  { keys: ['←', 'PageUp'], command: 'back' },
  { keys: ['Home'], command: 'restart' },
  { keys: ['End'], command: 'end' },
  { keys: ['i'], command: 'inspect' },
  { keys: ['t'], command: 'scene' },
  { keys: ['n'], command: 'notes' },
  { keys: ['f'], command: 'fullscreen' },
  { keys: ['?'], command: 'help' },
];
