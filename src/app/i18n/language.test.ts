import { describe, expect, it } from 'vitest';
import { chooseLanguage, LANGUAGE_STORAGE_KEY, readStoredLanguage, rememberLanguage, wantsKeysLocale } from './language.ts';

describe('chooseLanguage', () => {
  it('prefers the remembered choice over the browser', () => {
    expect(chooseLanguage('en', ['zh-CN'])).toBe('en');
    expect(chooseLanguage('zh-CN', ['en-US'])).toBe('zh-CN');
  });

  it('follows the browser on a first visit, in its order of preference', () => {
    expect(chooseLanguage(null, ['zh-CN', 'en'])).toBe('zh-CN');
    expect(chooseLanguage(null, ['zh'])).toBe('zh-CN');
    expect(chooseLanguage(null, ['de-DE', 'zh-TW', 'en'])).toBe('zh-CN');
    expect(chooseLanguage(null, ['fr', 'en-GB', 'zh-CN'])).toBe('en');
  });

  it('ignores a remembered value that is not a language we have', () => {
    expect(chooseLanguage('klingon', ['zh-CN'])).toBe('zh-CN');
  });

  it('falls back to English', () => {
    expect(chooseLanguage(null, [])).toBe('en');
    expect(chooseLanguage(null, ['ja-JP'])).toBe('en');
  });
});

describe('language storage', () => {
  it('round-trips through storage', () => {
    const map = new Map<string, string>();
    const storage = { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
    rememberLanguage(storage, 'zh-CN');
    expect(map.get(LANGUAGE_STORAGE_KEY)).toBe('zh-CN');
    expect(readStoredLanguage(storage)).toBe('zh-CN');
  });

  it('survives storage that throws', () => {
    const storage = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
    };
    expect(readStoredLanguage(storage)).toBeNull();
    expect(() => rememberLanguage(storage, 'en')).not.toThrow();
    expect(readStoredLanguage(undefined)).toBeNull();
  });
});

describe('wantsKeysLocale', () => {
  it('is on only for ?lng=keys', () => {
    expect(wantsKeysLocale('?lng=keys')).toBe(true);
    expect(wantsKeysLocale('?host=worker&lng=keys')).toBe(true);
    expect(wantsKeysLocale('?lng=en')).toBe(false);
    expect(wantsKeysLocale('')).toBe(false);
  });
});
