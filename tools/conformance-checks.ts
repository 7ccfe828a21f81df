// Reading what the conformance suite wrote: one folder per scenario run, each with a checks.json
// of `{ id, name, description, status, specReferences, details, errorMessage }` checks and, for a
// client scenario, the client's stderr.txt. Used by tests/conformance and tools/conformance-clients.ts.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type CheckStatus = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';

export interface Check {
  id: string;
  name?: string;
  description?: string;
  status: CheckStatus;
  errorMessage?: string;
  specReferences?: { id: string; url?: string }[];
}

export interface ScenarioResult {
  scenario: string;
  checks: Check[];
  /** The client's stderr (client scenarios), else ''. */
  log: string;
}

/** Every scenario folder under `dir`, as written by `conformance server|client ... -o dir`. */
export function readResults(dir: string, prefix: string): ScenarioResult[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, 'checks.json')))
    .sort()
    .map((name) => ({
      // Folder names are "<prefix><scenario>-<ISO time>"; the scenario is what is between.
      scenario: name.replace(prefix, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, ''),
      checks: JSON.parse(readFileSync(join(dir, name, 'checks.json'), 'utf8')) as Check[],
      log: existsSync(join(dir, name, 'stderr.txt')) ? readFileSync(join(dir, name, 'stderr.txt'), 'utf8') : '',
    }));
}

export function count(checks: readonly Check[], status: CheckStatus): number {
  return checks.filter((check) => check.status === status).length;
}

/** One line per scenario: passed / failed / warnings, for the test log. */
export function summaryTable(results: readonly ScenarioResult[]): string {
  const width = Math.max(8, ...results.map((result) => result.scenario.length));
  const lines = [`${'scenario'.padEnd(width)}  pass  fail  warn`, `${'-'.repeat(width)}  ----  ----  ----`];
  for (const { scenario, checks } of results) {
    lines.push(`${scenario.padEnd(width)}  ${String(count(checks, 'SUCCESS')).padStart(4)}  ${String(count(checks, 'FAILURE')).padStart(4)}  ${String(count(checks, 'WARNING')).padStart(4)}`);
  }
  return lines.join('\n');
}

/** Each failed or warned check with its message and the spec section it enforces. */
export function problems(results: readonly ScenarioResult[], status: 'FAILURE' | 'WARNING'): string[] {
  return results.flatMap(({ scenario, checks }) =>
    checks
      .filter((check) => check.status === status)
      .map((check) => `${scenario} / ${check.id}: ${check.errorMessage ?? check.description ?? ''} (${(check.specReferences ?? []).map((ref) => ref.url ?? ref.id).join(', ')})`),
  );
}
