// Which UI language to show: the learner's own choice if they made one, else the browser's.
// Pure, so the rule is testable without a browser.

export const LANGUAGES = ['en', 'zh-CN'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
export const LANGUAGE_STORAGE_KEY = 'mcp-playground.language';

/**
 * The fake "keys" locale: `?lng=keys` in the address shows every UI string as its key
 * (`workspace.run`), so text that a component hard-codes instead of translating stands out. It is
 * i18next's built-in `cimode`, never remembered, and available in every build: it changes nothing
 * but the text, and a reload without the flag brings the learner's language back.
 */
export const KEYS_LOCALE_QUERY = 'keys';
export const KEYS_LANGUAGE = 'cimode';

export function wantsKeysLocale(search: string): boolean {
  return new URLSearchParams(search).get('lng') === KEYS_LOCALE_QUERY;
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * A remembered choice wins; otherwise the first browser language we can serve, in the browser's
 * order of preference. Any Chinese variant gets zh-CN: the only Chinese we have.
 */
export function chooseLanguage(stored: string | null, browserLanguages: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of browserLanguages) {
    const primary = tag.toLowerCase().split('-')[0];
    if (primary === 'zh') return 'zh-CN';
    if (primary === 'en') return 'en';
  }
  return DEFAULT_LANGUAGE;
}

/** Storage that may be missing or may throw (private mode, blocked cookies): never let it break the page. */
export interface LanguageStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function readStoredLanguage(storage: LanguageStorage | undefined): string | null {
  try {
    return storage?.getItem(LANGUAGE_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

export function rememberLanguage(storage: LanguageStorage | undefined, language: Language): void {
  try {
    storage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not remembered across visits; the switch still works for this one.
  }
}
