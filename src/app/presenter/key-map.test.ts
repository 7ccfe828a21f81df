import { describe, expect, it } from 'vitest';
import { commandForKey, KEY_HELP, type FocusKind, type KeyInput } from './key-map.ts';

const press = (key: string, more: Partial<KeyInput> = {}) => commandForKey({ key, focus: 'other', helpOpen: false, ...more });

describe('presenter key map', () => {
  it('steps with the arrows, Space and a clicker’s PageDown / PageUp', () => {
    expect(press('ArrowRight')).toBe('next');
    expect(press(' ')).toBe('next');
    expect(press('PageDown')).toBe('next');
    expect(press('ArrowLeft')).toBe('back');
    expect(press('PageUp')).toBe('back');
    expect(press('Home')).toBe('restart');
    expect(press('End')).toBe('end');
  });

  it('switches the stage between the stdio and the HTTP stepper with t', () => {
    expect(press('t')).toBe('scene');
    expect(press('T')).toBe('scene');
    expect(press('t', { focus: 'field' })).toBeNull();
  });

  it('toggles full screen, notes and the key help; opens the inspector', () => {
    expect(press('f')).toBe('fullscreen');
    expect(press('F')).toBe('fullscreen');
    expect(press('n')).toBe('notes');
    expect(press('?')).toBe('help');
    expect(press('i')).toBe('inspect');
  });

  it('closes the key help with Escape only while it is open, leaving Escape to dialogs otherwise', () => {
    expect(press('Escape', { helpOpen: true })).toBe('close-help');
    expect(press('Escape')).toBeNull();
  });

  it('leaves browser shortcuts alone', () => {
    expect(press('f', { ctrlKey: true })).toBeNull();
    expect(press('ArrowLeft', { metaKey: true })).toBeNull();
    expect(press('ArrowRight', { altKey: true })).toBeNull();
  });

  it('leaves form fields and dialogs their own keys', () => {
    for (const focus of ['field', 'dialog'] as FocusKind[]) {
      for (const key of ['ArrowRight', ' ', 'n', 'f', 'Home']) expect(press(key, { focus }), `${key} in ${focus}`).toBeNull();
    }
  });

  it('leaves Space to a focused button or link (it presses it), but the other keys still work', () => {
    expect(press(' ', { focus: 'control' })).toBeNull();
    expect(press('Home', { focus: 'control' })).toBe('restart');
    expect(press('End', { focus: 'control' })).toBe('end');
    expect(press('ArrowRight', { focus: 'control' })).toBe('next');
    expect(press('n', { focus: 'control' })).toBe('notes');
  });

  it('ignores other keys', () => {
    for (const key of ['a', 'Enter', 'Tab', 'ArrowUp', 'Shift']) expect(press(key)).toBeNull();
  });

  it('documents every command it maps, with keys that really map to it', () => {
    for (const { keys, command } of KEY_HELP) {
      const typed = keys.map((key) => ({ '→': 'ArrowRight', '←': 'ArrowLeft', Space: ' ' })[key] ?? key);
      for (const key of typed) expect(press(key), key).toBe(command);
    }
  });
});
