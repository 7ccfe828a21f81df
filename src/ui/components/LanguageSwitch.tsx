import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../../app/i18n/language.ts';

// Each language is named in itself, so a learner who cannot read the current one still finds theirs.
const OWN_NAME_KEY = { en: 'language.en', 'zh-CN': 'language.zhCN' } as const satisfies Record<Language, string>;

export function LanguageSwitch() {
  const { t, i18n } = useTranslation('common');
  const current = i18n.resolvedLanguage ?? i18n.language;
  return (
    <div className="language-switch" role="group" aria-label={t('language.label')}>
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          className="language-switch__button"
          aria-pressed={current === language}
          onClick={() => void i18n.changeLanguage(language)}
        >
          {t(OWN_NAME_KEY[language])}
        </button>
      ))}
    </div>
  );
}
