// Runs the preflight checks side by side and keeps one row per check, updated as each finishes:
// the WebContainer boot can take seconds, and the quick rows should not wait for it. A second run
// started while one is going replaces it; answers from the old run are dropped.

import { createStore, type Store } from '../store/create-store.ts';
import { CHECK_IDS, type CheckId, type CheckResult, type CheckRow, type CheckStatus } from './check-types.ts';

export type PreflightChecks = Record<CheckId, () => Promise<CheckResult>>;

export interface PreflightState {
  running: boolean;
  rows: readonly CheckRow[];
  /** When the last complete run ended (ms since the epoch), for the summary. */
  finishedAt: number | null;
}

export interface PreflightStore extends Pick<Store<PreflightState>, 'getSnapshot' | 'subscribe'> {
  /** Resolves when every check of this run has answered. */
  run(): Promise<void>;
}

export function createPreflightStore(checks: PreflightChecks, now: () => number = Date.now): PreflightStore {
  const store = createStore<PreflightState>({ running: false, rows: CHECK_IDS.map((id) => ({ id, state: 'pending' })), finishedAt: null });
  let currentRun = 0;

  function setRow(row: CheckRow): void {
    store.setState((state) => ({ ...state, rows: state.rows.map((existing) => (existing.id === row.id ? row : existing)) }));
  }

  return {
    getSnapshot: store.getSnapshot,
    subscribe: store.subscribe,
    async run() {
      currentRun += 1;
      const thisRun = currentRun;
      store.setState({ running: true, rows: CHECK_IDS.map((id) => ({ id, state: 'running' })), finishedAt: null });
      await Promise.all(
        CHECK_IDS.map(async (id) => {
          let result: CheckResult;
          try {
            result = await checks[id]();
          } catch (error) {
            // The checks promise never to throw; if one does anyway, its row says so.
            result = { status: 'fail', detail: { key: 'checkCrashed', values: { reason: error instanceof Error ? error.message : String(error) } }, fixes: [] };
          }
          if (thisRun === currentRun) setRow({ id, state: 'done', result });
        }),
      );
      if (thisRun === currentRun) store.setState((state) => ({ ...state, running: false, finishedAt: now() }));
    },
  };
}

/**
 * Whether the rows show a finished run. Not before the first run has ended: the panel renders once
 * before its mount effect starts the checks, and that first frame must not say "Finished: 0 OK".
 */
export function hasFinished(state: PreflightState): boolean {
  return !state.running && state.finishedAt !== null;
}

export function countByStatus(rows: readonly CheckRow[]): Record<CheckStatus, number> & { done: number } {
  const counts = { pass: 0, warn: 0, fail: 0, skip: 0, done: 0 };
  for (const row of rows) {
    if (row.state !== 'done') continue;
    counts[row.result.status] += 1;
    counts.done += 1;
  }
  return counts;
}
