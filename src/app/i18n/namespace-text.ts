// Each area of the page keeps its text in its own i18n.ts (English and Simplified Chinese objects
// with identical keys), merged under one key in en.ts and zh-CN.ts. This builds the `t` an area
// uses: keys typed from its English object (a key that does not exist is a type error), looked up
// under that key; and for an i18next instance without the area's text (a component test's own),
// the text added the first time it is asked for.

import type { i18n as I18n } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** 'a.b.c' for every string leaf of T. */
export type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

export type NamespaceText<T> = (key: Leaves<T>, values?: Record<string, string | number>) => string;

export interface NamespaceTextKit<T> {
  /** Make sure `<namespace>.*` resolves in this instance (a no-op once the page's resources hold it). */
  register(i18n: I18n): void;
  /** The area's `t`, stable while the language stays the same. */
  useText(): NamespaceText<T>;
}

export function namespaceText<T extends object>(namespace: string, en: T, zhCN: T): NamespaceTextKit<T> {
  const registered = new WeakSet<I18n>();

  function register(i18n: I18n): void {
    if (registered.has(i18n)) return;
    registered.add(i18n);
    if (i18n.getResource('en', 'translation', namespace) !== undefined) return;
    i18n.addResourceBundle('en', 'translation', { [namespace]: en }, true, false);
    i18n.addResourceBundle('zh-CN', 'translation', { [namespace]: zhCN }, true, false);
  }

  function useText(): NamespaceText<T> {
    const { t, i18n } = useTranslation();
    register(i18n);
    // The page's typed keys are checked here, by Leaves<T>, so the lookup itself is by string.
    const lookup = t as unknown as (key: string, values?: object) => string;
    return useCallback<NamespaceText<T>>((key, values) => lookup(`${namespace}.${key}`, values), [lookup]);
  }

  return { register, useText };
}
