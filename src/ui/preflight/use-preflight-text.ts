// The preflight's `t`: keys relative to `preflight.` (merged into the page's resources in
// src/app/i18n/en.ts), looked up untyped rather than through the page's typed resources, so a
// component test can render with its own small i18next instance (tests/i18n checks the keys).

import { useTranslation } from 'react-i18next';
import type { PreflightTranslate } from '../../app/preflight/summary.ts';

export function usePreflightText(): PreflightTranslate {
  const { t } = useTranslation();
  const untyped = t as unknown as (key: string, values?: Record<string, string | number>) => string;
  return (key, values) => untyped(`preflight.${key}`, values ?? {});
}
