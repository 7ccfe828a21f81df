// The preflight's `t`: the `preflight` namespace (src/locales/<language>/preflight.json). Keys are
// built from check ids and results at run time, so this `t` takes any string.

import { useTranslation } from 'react-i18next';
import type { PreflightTranslate } from '../../app/preflight/summary.ts';

export function usePreflightText(): PreflightTranslate {
  const { t } = useTranslation('preflight');
  const untyped = t as unknown as (key: string, values?: Record<string, string | number>) => string;
  return (key, values) => untyped(key, values ?? {});
}
