// The Chapter loop's status line, from the store's state: which text, and how loud.

import type { AgentState } from './chapter-loop-store.ts';
import type { AgentTextKey } from './text.ts';

export interface AgentStatus {
  key: AgentTextKey;
  values?: Record<string, string>;
  /** `error`: the connection failed; `warning`: connected, but something needs the learner's eye. */
  tone: 'info' | 'warning' | 'error';
}

export function agentStatus(state: Pick<AgentState, 'phase' | 'failure' | 'merge'>): AgentStatus {
  if (state.phase === 'failed') return { key: 'status.failed', values: { reason: state.failure ?? '?' }, tone: 'error' };
  // A refused merge leaves the registry with the local tools only: not what "ready" promises.
  if (state.phase === 'ready' && state.merge !== null && !state.merge.ok) return { key: 'status.refused', tone: 'warning' };
  return { key: `status.${state.phase}`, tone: 'info' };
}
