// The few facts about learner-server that the page needs too. Nothing heavy imported on purpose:
// the page bundle must not pull in the loader (and sucrase with it) just to read a prefix or a limit.

import { HEARTBEAT_HARD_LIMIT_MS } from './heartbeat.ts';

/** The runner's exit code when the learner's server did not load (syntax, export, constructor). */
export const LEARNER_SERVER_LOAD_EXIT_CODE = 3;
/** The stderr prefix every host uses, so the live panel reads the same words everywhere. */
export const LEARNER_SERVER_LOG_PREFIX = '[learner-server]';
/** The one stderr line of a failed load starts with this (after the prefix). */
export const LOAD_FAILURE_LEAD = 'your server did not load: ';

export const LEARNER_SERVER_HEARTBEAT_MS = 250;
/** Silence after which the page ends the worker (heartbeat.ts). */
export const LEARNER_SERVER_HARD_LIMIT_MS = HEARTBEAT_HARD_LIMIT_MS;

/**
 * The learner-server worker's "still here", apart from tap events; 'preparing' … 'prepared'
 * brackets the transpiling of learner code, which runs none of it and may take a slow machine
 * longer than the 2 s rule, so the host holds the rule off in between.
 */
export interface WorkerHeartbeat {
  type: 'alive' | 'preparing' | 'prepared';
}

/** The stderr line the host adds when it ends a learner server that stopped beating (worker host and bridge alike). */
export function stuckServerLine(limitMs: number): string {
  const seconds = Number((limitMs / 1000).toFixed(1));
  return `${LEARNER_SERVER_LOG_PREFIX} stopped: your server ran for more than ${seconds} s without pausing, so the page ended it. Look for a loop that never ends.`;
}
