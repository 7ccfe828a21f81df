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
    preload: ['exercise'],
  };
  return { env, map, documentLanguages };
}

describe('createI18n', () => {
  it('follows the browser on a first visit, loads only the namespaces asked for, and remembers a switch', async () => {
    const { env, map, documentLanguages } = environment({ browser: ['zh-CN', 'en'] });
    const i18n = createI18n(env);
    // The language is chosen at once; its text arrives through the backend.
    expect(i18n.language).toBe('zh-CN');
    await i18n.loadNamespaces(['common', 'exercise']);
    expect(i18n.t('workspace.run', { ns: 'exercise' })).toBe('运行测试');
    expect(i18n.t('app.title')).toBe('MCP Playground');
    expect(i18n.hasLoadedNamespace('protocol')).toBe(false);
    expect(map.get(LANGUAGE_STORAGE_KEY)).toBeUndefined();
    expect(documentLanguages).toEqual(['zh-CN']);
    await i18n.loadNamespaces('protocol');
    expect(i18n.t('view.heading', { ns: 'protocol' })).not.toBe('view.heading');
    // A switch loads every namespace in use in the new language before the text changes.
    await i18n.changeLanguage('en');
    expect(i18n.t('workspace.run', { ns: 'exercise' })).toBe('Run tests');
    expect(i18n.hasLoadedNamespace('protocol', { lng: 'en' })).toBe(true);
    expect(map.get(LANGUAGE_STORAGE_KEY)).toBe('en');
    expect(documentLanguages).toEqual(['zh-CN', 'en']);
  });

  it('the keys locale shows keys, with no interpolation and nothing to load, and is never remembered', async () => {
    const { env, map } = environment({ stored: 'zh-CN', showKeys: true });
    const loads: string[] = [];
    const i18n = createI18n({ ...env, loadNamespace: async (language, namespace) => (loads.push(`${language}/${namespace}`), {}) });
    expect(i18n.hasLoadedNamespace('exercise')).toBe(true);
    expect(i18n.t('workspace.run', { ns: 'exercise' })).toBe('workspace.run');
    expect(i18n.t('results.pass', { ns: 'exercise', total: 3 })).toBe('results.pass');
    expect(i18n.t('view.heading', { ns: 'protocol' })).toBe('view.heading');
    expect(loads).toEqual([]);
    expect(map.get(LANGUAGE_STORAGE_KEY)).toBe('zh-CN');
  });

  it('choosing a language after the keys locale loads its text and is remembered', async () => {
    const { env, map } = environment({ stored: 'zh-CN', showKeys: true });
    const i18n = createI18n(env);
    await i18n.loadNamespaces(['common', 'exercise']);
    await i18n.changeLanguage('en');
    expect(i18n.t('workspace.run', { ns: 'exercise' })).toBe('Run tests');
    expect(map.get(LANGUAGE_STORAGE_KEY)).toBe('en');
  });
});
