// The protocol view's translations, typed by the English object: a key that does not exist is a
// type error. The page's resources hold them under `protocolView` (src/ui/i18n/en.ts, zh-CN.ts);
// an i18next instance without them (a component test's) gets them the first time one is asked for.

import type { i18n as I18n } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { protocolViewEn, protocolViewZhCN } from './i18n.ts';

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

export type ProtocolTextKey = Leaves<typeof protocolViewEn>;
export type ProtocolText = (key: ProtocolTextKey, values?: Record<string, string | number>) => string;

const NAMESPACE_KEY = 'protocolView';
const registered = new WeakSet<I18n>();

/** Make sure `protocolView.*` resolves in this instance (a no-op once the main resources hold it). */
export function registerProtocolText(i18n: I18n): void {
  if (registered.has(i18n)) return;
  registered.add(i18n);
  if (i18n.exists(`${NAMESPACE_KEY}.view.heading`, { lng: 'en', fallbackLng: false })) return;
  i18n.addResourceBundle('en', 'translation', { [NAMESPACE_KEY]: protocolViewEn }, true, false);
  i18n.addResourceBundle('zh-CN', 'translation', { [NAMESPACE_KEY]: protocolViewZhCN }, true, false);
}

export function useProtocolText(): ProtocolText {
  const { t, i18n } = useTranslation();
  registerProtocolText(i18n);
  return useCallback<ProtocolText>((key, values) => (t as unknown as (key: string, values?: object) => string)(`${NAMESPACE_KEY}.${key}`, values), [t]);
}
