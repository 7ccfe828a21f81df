import { describe, expect, it } from 'vitest';
import { createI18n, type I18nEnvironment } from './index.ts';
import { LANGUAGE_STORAGE_KEY, type Language } from './language.ts';

function environment(options: { stored?: string; browser?: string[]; showKeys?: boolean } = {}) {
  const map = new Map<string, string>(options.stored ? [[LANGUAGE_STORAGE_KEY, options.stored]] : []);
  const documentLanguages: Language[] = [];
  const env: I18nEnvironment = {
    storage: { getItem: (key) => map.get(key) ?? null, setItem: (key, value) => void map.set(key, value) },
    browserLanguages: options.browser ?? ['en-US'],
    showKeys: options.showKeys,
    setDocumentLanguage: (language) => documentLanguages.push(language),
  };
  return { env, map, documentLanguages };
}

describe('createI18n', () => {
  it('follows the browser on a first visit and remembers a switch', async () => {
    const { env, map, documentLanguages } = environment({ browser: ['zh-CN', 'en'] });
    const i18n = createI18n(env);
    expect(i18n.t('workspace.run')).toBe('运行测试');
    expect(documentLanguages).toEqual(['zh-CN']);
    await i18n.changeLanguage('en');
    expect(i18n.t('workspace.run')).toBe('Run tests');
    expect(map.get(LANGUAGE_STORAGE_KEY)).toBe('en');
    expect(documentLanguages).toEqual(['zh-CN', 'en']);
  });

  it('the keys locale shows keys, with no interpolation, and is never remembered', async () => {
    const { env, map } = environment({ stored: 'zh-CN', showKeys: true });
    const i18n = createI18n(env);
    expect(i18n.t('workspace.run')).toBe('workspace.run');
    expect(i18n.t('results.pass', { total: 3 })).toBe('results.pass');
    expect(i18n.t('protocolView.view.heading')).toBe('protocolView.view.heading');
    expect(map.get(LANGUAGE_STORAGE_KEY)).toBe('zh-CN');
    // Choosing a language from the switch leaves the keys locale and is remembered as usual.
    await i18n.changeLanguage('en');
    expect(i18n.t('workspace.run')).toBe('Run tests');
    expect(map.get(LANGUAGE_STORAGE_KEY)).toBe('en');
  });
});
