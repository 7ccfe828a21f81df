// The presenter's translations, typed by the English object. The page's resources should hold them
// under `presenter` (see the hook-up in README.md); until they do, and in tests with their own
// i18next instance, they are added to the instance the first time one is asked for.

import type { i18n as I18n } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { presenterEn, presenterZhCN } from './i18n.ts';

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

export type PresenterTextKey = Leaves<typeof presenterEn>;
export type PresenterText = (key: PresenterTextKey, values?: Record<string, string | number>) => string;

const NAMESPACE_KEY = 'presenter';
const registered = new WeakSet<I18n>();

export function registerPresenterText(i18n: I18n): void {
  if (registered.has(i18n)) return;
  registered.add(i18n);
  if (i18n.exists(`${NAMESPACE_KEY}.presenter.label`, { lng: 'en', fallbackLng: false })) return;
  i18n.addResourceBundle('en', 'translation', { [NAMESPACE_KEY]: presenterEn }, true, false);
  i18n.addResourceBundle('zh-CN', 'translation', { [NAMESPACE_KEY]: presenterZhCN }, true, false);
}

export function usePresenterText(): PresenterText {
  const { t, i18n } = useTranslation();
  registerPresenterText(i18n);
  return useCallback<PresenterText>((key, values) => (t as unknown as (key: string, values?: object) => string)(`${NAMESPACE_KEY}.${key}`, values), [t]);
}
