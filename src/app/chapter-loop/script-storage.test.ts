import { describe, expect, it } from 'vitest';
import { clearScriptText, loadScriptText, saveScriptText, SCRIPT_STORAGE_KEY, type ScriptStorage } from './script-storage.ts';

function memory(): ScriptStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (key) => data.get(key) ?? null, setItem: (key, value) => void data.set(key, value), removeItem: (key) => void data.delete(key) };
}

describe('the saved script', () => {
  it('keeps the raw text, even when it does not parse, and forgets it on reset', () => {
    const storage = memory();
    expect(loadScriptText(storage)).toBeNull();
    expect(saveScriptText(storage, '{"user": ')).toBe(true);
    expect(storage.data.get(SCRIPT_STORAGE_KEY)).toBe('{"user": ');
    expect(loadScriptText(storage)).toBe('{"user": ');
    clearScriptText(storage);
    expect(loadScriptText(storage)).toBeNull();
  });

  it('says so when the browser refuses to save', () => {
    const full: ScriptStorage = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); }, removeItem: () => {} };
    expect(saveScriptText(full, 'x')).toBe(false);
    expect(saveScriptText(undefined, 'x')).toBe(false);
    const broken: ScriptStorage = { getItem: () => { throw new Error('SecurityError'); }, setItem: () => {}, removeItem: () => { throw new Error('SecurityError'); } };
    expect(loadScriptText(broken)).toBeNull();
    expect(() => clearScriptText(broken)).not.toThrow();
  });
});
