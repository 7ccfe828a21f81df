// The Chapter loop's translations, typed by the English object (a missing key is a type error).
// The page's resources should hold them under `agentView`; an i18next instance without them (a
// component test's, or the page before the lead merges them) gets them the first time one is asked.

import type { i18n as I18n } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { agentViewEn, agentViewZhCN } from './i18n.ts';

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

export type AgentTextKey = Leaves<typeof agentViewEn>;
export type AgentText = (key: AgentTextKey, values?: Record<string, string | number>) => string;

const NAMESPACE_KEY = 'agentView';
const registered = new WeakSet<I18n>();

export function registerAgentText(i18n: I18n): void {
  if (registered.has(i18n)) return;
  registered.add(i18n);
  if (i18n.exists(`${NAMESPACE_KEY}.view.heading`, { lng: 'en', fallbackLng: false })) return;
  i18n.addResourceBundle('en', 'translation', { [NAMESPACE_KEY]: agentViewEn }, true, false);
  i18n.addResourceBundle('zh-CN', 'translation', { [NAMESPACE_KEY]: agentViewZhCN }, true, false);
}

export function useAgentText(): AgentText {
  const { t, i18n } = useTranslation();
  registerAgentText(i18n);
  return useCallback<AgentText>((key, values) => (t as unknown as (key: string, values?: object) => string)(`${NAMESPACE_KEY}.${key}`, values), [t]);
}
