// For tests in Node: an i18next instance with every namespace of both languages already in (read
// with an eager glob, so no loading step), in the language asked for.

import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from './language.ts';
import { DEFAULT_NAMESPACE } from './resources.ts';

const files = import.meta.glob<object>('/src/locales/*/*.json', { import: 'default', eager: true });

/** language → namespace → resources, from src/locales. */
export function allResources(): Record<string, Record<string, object>> {
  const resources: Record<string, Record<string, object>> = {};
  for (const [path, content] of Object.entries(files)) {
    const [language, file] = path.split('/').slice(-2) as [string, string];
    (resources[language] ??= {})[file.replace(/\.json$/, '')] = content;
  }
  return resources;
}

export function createTestI18n(language: Language | 'cimode' = 'en'): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: 'en',
    resources: allResources(),
    defaultNS: DEFAULT_NAMESPACE,
    appendNamespaceToCIMode: false,
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return instance;
}
