// The progress-transfer text, typed by its own keys. The page's resources (src/ui/i18n/en.ts) are
// the place for it; until they import it, the bundle is added to the running i18next instance the
// first time it is needed, so the feature is never shown as raw keys. Once merged this is a no-op.

import type { i18n as I18n } from 'i18next';
import { useTranslation } from 'react-i18next';
import { progressTransferEn, progressTransferZhCN } from './i18n.ts';

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

export type TransferKey = Leaves<typeof progressTransferEn>;
export type TransferText = (key: TransferKey, values?: Record<string, string | number>) => string;

export const TRANSFER_NAMESPACE_KEY = 'progressTransfer';

export function ensureTransferResources(instance: I18n): void {
  if (instance.exists(`${TRANSFER_NAMESPACE_KEY}.panel.heading`, { lng: 'en' })) return;
  instance.addResourceBundle('en', 'translation', { [TRANSFER_NAMESPACE_KEY]: progressTransferEn }, true, false);
  instance.addResourceBundle('zh-CN', 'translation', { [TRANSFER_NAMESPACE_KEY]: progressTransferZhCN }, true, false);
}

export function useTransferText(): TransferText {
  const { t, i18n } = useTranslation();
  ensureTransferResources(i18n);
  // The page's typed keys do not include this namespace until it is merged: look up by string.
  const lookup = t as unknown as (key: string, values?: Record<string, unknown>) => string;
  return (key, values) => lookup(`${TRANSFER_NAMESPACE_KEY}.${key}`, values);
}
