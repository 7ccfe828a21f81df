// The SDK checks' translations, typed by the English object (a missing key is a type error). The
// page's resources should hold them under `sdkChecks`; an i18next instance without them (a
// component test's, or the page before they are merged) gets them the first time one is asked —
// the same arrangement as protocol-view/text.ts.

import type { i18n as I18n } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { sdkChecksEn, sdkChecksZhCN } from './i18n.ts';

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

export type SdkTextKey = Leaves<typeof sdkChecksEn>;
export type SdkText = (key: SdkTextKey, values?: Record<string, string | number>) => string;

const NAMESPACE_KEY = 'sdkChecks';
const registered = new WeakSet<I18n>();

export function registerSdkText(i18n: I18n): void {
  if (registered.has(i18n)) return;
  registered.add(i18n);
  if (i18n.exists(`${NAMESPACE_KEY}.heading`, { lng: 'en', fallbackLng: false })) return;
  i18n.addResourceBundle('en', 'translation', { [NAMESPACE_KEY]: sdkChecksEn }, true, false);
  i18n.addResourceBundle('zh-CN', 'translation', { [NAMESPACE_KEY]: sdkChecksZhCN }, true, false);
}

export function useSdkText(): SdkText {
  const { t, i18n } = useTranslation();
  registerSdkText(i18n);
  return useCallback<SdkText>((key, values) => (t as unknown as (key: string, values?: object) => string)(`${NAMESPACE_KEY}.${key}`, values), [t]);
}
