// The UI language as the exercise engine names it: lessons, hints and titles follow it.
import { useTranslation } from 'react-i18next';
import type { Locale } from '../../exercise/types.ts';

export function useLocale(): Locale {
  const { i18n } = useTranslation();
  return (i18n.resolvedLanguage ?? i18n.language) === 'zh-CN' ? 'zh-CN' : 'en';
}
