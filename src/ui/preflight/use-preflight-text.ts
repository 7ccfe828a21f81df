// The preflight's `t`: keys relative to `preflight.`, checked against preflightEn here rather than
// through the page's typed resources, so these components compile and render the same before and
// after the namespace is merged into src/ui/i18n/en.ts.

import { useTranslation } from 'react-i18next';
import type { PreflightTranslate } from '../../app/preflight/summary.ts';

export function usePreflightText(): PreflightTranslate {
  const { t } = useTranslation();
  const untyped = t as unknown as (key: string, values?: Record<string, string | number>) => string;
  return (key, values) => untyped(`preflight.${key}`, values ?? {});
}
