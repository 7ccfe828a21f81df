import { describe, expect, it } from 'vitest';
import { agentStatus } from './agent-status.ts';
import type { MergeReport } from './chapter-loop-store.ts';

const merge = (ok: boolean): MergeReport => ({
  code: 'reference',
  prefix: ok ? 'mcp__echo__' : '',
  ok,
  count: ok ? 5 : null,
  error: ok ? null : { name: 'DuplicateToolError', message: 'A tool named "add" is already registered', line: null, code: null },
  problems: [],
  listed: ['echo', 'add'],
});

describe("the Chapter loop's status line", () => {
  it('says the registry is ready only when the merge went through', () => {
    expect(agentStatus({ phase: 'ready', failure: null, merge: merge(true) })).toEqual({ key: 'status.ready', tone: 'info' });
  });

  it('after a refused merge, says so instead of "ready for a turn"', () => {
    expect(agentStatus({ phase: 'ready', failure: null, merge: merge(false) })).toEqual({ key: 'status.refused', tone: 'warning' });
  });

  it('names the reason of a failed connection, and follows the other phases', () => {
    expect(agentStatus({ phase: 'failed', failure: 'spawn failed', merge: null })).toEqual({ key: 'status.failed', values: { reason: 'spawn failed' }, tone: 'error' });
    expect(agentStatus({ phase: 'idle', failure: null, merge: null }).key).toBe('status.idle');
    expect(agentStatus({ phase: 'merging', failure: null, merge: null }).key).toBe('status.merging');
  });
});
