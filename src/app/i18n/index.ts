// The i18next instance for the page: the text of each feature (namespace) in each language loads
// when a view first asks for it (useTranslation(ns) suspends until then, so no key ever flashes),
// through i18next's backend mechanism; the choice is remembered in localStorage, and <html lang>
// kept in step for screen readers and fonts.

import i18next, { type i18n } from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import { loadLocaleFile } from './locale-files.ts';
import { DEFAULT_NAMESPACE, type Namespace } from './resources.ts';
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

export interface I18nEnvironment {
  storage: LanguageStorage | undefined;
  browserLanguages: readonly string[];
  /** `?lng=keys`: show every string as its key (see KEYS_LOCALE_QUERY). */
  showKeys?: boolean;
  setDocumentLanguage(language: Language): void;
  /** Namespaces to start loading at once, besides `common` (the first view's). */
  preload?: readonly Namespace[];
  /** Where each language's namespace comes from; the JSON chunks of the build by default. */
  loadNamespace?: (language: string, namespace: string) => Promise<object>;
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
  const rememberChoices = () =>
    instance.on('languageChanged', (next) => {
      // The keys locale is a tool for finding untranslated text, not a choice to remember.
      if (next === KEYS_LANGUAGE) return;
      const chosen: Language = next === 'zh-CN' ? 'zh-CN' : 'en';
      rememberLanguage(environment.storage, chosen);
      environment.setDocumentLanguage(chosen);
    });
  void instance
    .use(resourcesToBackend(environment.loadNamespace ?? loadLocaleFile))
    .use(initReactI18next)
    .init(
      {
        ns: [DEFAULT_NAMESPACE, ...(environment.preload ?? [])],
        defaultNS: DEFAULT_NAMESPACE,
        lng: showKeys ? KEYS_LANGUAGE : language,
        // The key alone ("workspace.run"), not "exercise:workspace.run".
        appendNamespaceToCIMode: false,
        fallbackLng: DEFAULT_LANGUAGE,
        supportedLngs: ['en', 'zh-CN'],
        // React escapes text already; escaping here would show &lt; in the log.
        interpolation: { escapeValue: false },
        // The language is set at once (the exercise store reads it); its text follows.
        initAsync: false,
        load: 'currentOnly',
      },
      // After the first language is in: a choice the learner makes is remembered, the one made
      // for them from the browser is not.
      rememberChoices,
    );
  environment.setDocumentLanguage(language);
  return instance;
}
