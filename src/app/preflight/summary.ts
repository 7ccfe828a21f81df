// The text an instructor collects from each laptop: one line per check with its status, what was
// found and what to do, plus the browser and address. Plain text, so it survives any chat tool.

import type { CheckRow } from './check-types.ts';

/** i18next's `t`, narrowed to what the summary needs; keys are in the `preflight` namespace. */
export type PreflightTranslate = (key: string, values?: Record<string, string | number>) => string;

export interface SummaryContext {
  browser: string;
  address: string;
  /** ms since the epoch, or null while checks still run. */
  checkedAt: number | null;
}

export function buildSummary(rows: readonly CheckRow[], t: PreflightTranslate, context: SummaryContext): string {
  const lines = [
    t('summary.title'),
    `${t('summary.browser')}: ${context.browser}`,
    `${t('summary.address')}: ${context.address}`,
    `${t('summary.time')}: ${context.checkedAt === null ? t('status.running') : new Date(context.checkedAt).toISOString()}`,
    '',
  ];
  for (const row of rows) {
    const status = row.state === 'done' ? t(`status.${row.result.status}`) : t(`status.${row.state}`);
    const detail = row.state === 'done' ? ` — ${t(`detail.${row.result.detail.key}`, row.result.detail.values)}` : '';
    lines.push(`[${status}] ${t(`check.${row.id}`)}${detail}`);
    if (row.state === 'done' && row.result.status !== 'pass') {
      for (const fix of row.result.fixes) lines.push(`    - ${t(`fix.${fix.key}`, fix.values)}`);
    }
  }
  return lines.join('\n');
}

/**
 * The page address for the summary, without the bridge token: on a shared LAN bridge the join link
 * carries `?token=`, and the summary is meant to be pasted into a chat.
 */
export function addressWithoutToken(href: string): string {
  try {
    const url = new URL(href);
    if (!url.searchParams.has('token')) return href;
    url.searchParams.delete('token');
    return url.href;
  } catch {
    return href;
  }
}
