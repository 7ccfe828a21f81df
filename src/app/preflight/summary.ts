// The text an instructor collects from each laptop: one line per check with its status, what was
// found and what to do, plus the browser and address. Plain text, so it survives any chat tool.

import type { HostReasonCode } from '../../runtime/host.ts';
import type { CheckRow, Detail } from './check-types.ts';

/** i18next's `t`, narrowed to what the summary needs; keys are in the `preflight` namespace. */
export type PreflightTranslate = (key: string, values?: Record<string, string | number>) => string;

/** Words a host's reason in the page's language (app/live-session/host-reason-text.ts, with the live namespace). */
export type HostReasonWords = (reason: { reason: string; why?: HostReasonCode }) => string;

export interface SummaryContext {
  browser: string;
  address: string;
  /** ms since the epoch, or null while checks still run. */
  checkedAt: number | null;
  /** Without it, a host's reason stays the host's English sentence. */
  hostReason?: HostReasonWords;
}

/** What a check found, in words: a host's reason (`detail.why`) in the page's language when `hostReason` is given. */
export function detailText(t: PreflightTranslate, detail: Detail, hostReason?: HostReasonWords): string {
  const values = detail.values;
  if (detail.why === undefined || hostReason === undefined || values === undefined) return t(`detail.${detail.key}`, values);
  return t(`detail.${detail.key}`, { ...values, reason: hostReason({ reason: String(values.reason ?? ''), why: detail.why }) });
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
    const detail = row.state === 'done' ? ` — ${detailText(t, row.result.detail, context.hostReason)}` : '';
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
