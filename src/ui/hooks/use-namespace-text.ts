// Each feature's `t`: its namespace's keys typed from the English JSON (a key that does not exist
// is
// a type error, see src/app/text/namespace-text.ts), looked up in that namespace.
// useTranslation(namespace) suspends the component until the namespace is loaded in the current
// language, so the page never shows a key for text.

import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Namespace, Resources } from '../../app/i18n/resources.ts';
import type { NamespaceText } from '../../app/text/namespace-text.ts';

/** The `t` of one feature's namespace, stable while the language stays the same. */
export function useNamespaceText<N extends Namespace>(namespace: N): NamespaceText<Resources[N]> {
  const { t } = useTranslation(namespace);
  // The keys are checked by NamespaceText's Leaves<T>, so the lookup itself is by string.
  const lookup = t as unknown as (key: string, values?: object) => string;
  return useCallback<NamespaceText<Resources[N]>>((key, values) => lookup(key, values), [lookup]);
}
