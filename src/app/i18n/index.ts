// The i18next instance for the page: both languages bundled (two small objects, no loading step),
// the choice remembered in localStorage, <html lang> kept in step for screen readers and fonts.

import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en.ts';
import { zhCN } from './zh-CN.ts';
import {
  chooseLanguage,
  DEFAULT_LANGUAGE,
  KEYS_LANGUAGE,
  readStoredLanguage,
  rememberLanguage,
  wantsKeysLocale,
  type Language,
  type LanguageStorage,
} from './language.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}

export interface I18nEnvironment {
  storage: LanguageStorage | undefined;
  browserLanguages: readonly string[];
  /** `?lng=keys`: show every string as its key (see KEYS_LOCALE_QUERY). */
  showKeys?: boolean;
  setDocumentLanguage(language: Language): void;
}

export function browserI18nEnvironment(): I18nEnvironment {
  let storage: LanguageStorage | undefined;
  try {
    storage = window.localStorage;
  } catch {
    storage = undefined;
  }
  return {
    storage,
    browserLanguages: navigator.languages.length > 0 ? navigator.languages : [navigator.language],
    showKeys: wantsKeysLocale(window.location.search),
    setDocumentLanguage: (language) => {
      document.documentElement.lang = language;
    },
  };
}

export function createI18n(environment: I18nEnvironment): i18n {
  const instance = i18next.createInstance();
  const language = chooseLanguage(readStoredLanguage(environment.storage), environment.browserLanguages);
  const showKeys = environment.showKeys === true;
  void instance.use(initReactI18next).init({
    resources: { en: { translation: en }, 'zh-CN': { translation: zhCN } },
    lng: showKeys ? KEYS_LANGUAGE : language,
    // The key alone ("workspace.run"), not "translation:workspace.run".
    appendNamespaceToCIMode: false,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: ['en', 'zh-CN'],
    // React escapes text already; escaping here would show &lt; in the log.
    interpolation: { escapeValue: false },
    initAsync: false,
    load: 'currentOnly',
  });
  environment.setDocumentLanguage(language);
  instance.on('languageChanged', (next) => {
    // The keys locale is a tool for finding untranslated text, not a choice to remember.
    if (next === KEYS_LANGUAGE) return;
    const chosen: Language = next === 'zh-CN' ? 'zh-CN' : 'en';
    rememberLanguage(environment.storage, chosen);
    environment.setDocumentLanguage(chosen);
  });
  return instance;
}
