// The edited script, kept in localStorage as the raw text the learner typed (even while it does not
// parse: nothing typed is lost). No saved text means "the default turn in the page's language".

export const SCRIPT_STORAGE_KEY = 'mcp-playground:agent-script';

export interface ScriptStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export function browserScriptStorage(): ScriptStorage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** The saved text, or null when there is none (or storage cannot be read). */
export function loadScriptText(storage: ScriptStorage | undefined): string | null {
  try {
    return storage?.getItem(SCRIPT_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Save; false when the browser refused (the text then lives only in the page). */
export function saveScriptText(storage: ScriptStorage | undefined, text: string): boolean {
  if (storage === undefined) return false;
  try {
    storage.setItem(SCRIPT_STORAGE_KEY, text);
    return true;
  } catch {
    return false;
  }
}

export function clearScriptText(storage: ScriptStorage | undefined): void {
  try {
    storage?.removeItem(SCRIPT_STORAGE_KEY);
  } catch {
    // Nothing to clear in a browser that cannot store.
  }
}
