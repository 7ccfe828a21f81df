import { describe, expect, it } from 'vitest';
import type { ToolInfo } from '../protocol/mcp.ts';
import { localToolRows } from '../app/chapter-loop/agent-registry.ts';
import { checkMerge } from '../app/chapter-loop/merge-check.ts';
import { resolveCall, toolRows, type ToolRow } from './tool-table.ts';

const local = localToolRows();
const remote = (name: string, remoteName: string, server: string | null = 'echo'): ToolRow => ({ name, origin: { kind: 'mcp', server, remoteName }, tier: 'auto', description: '' });
const listed = (...names: string[]): ToolInfo[] => names.map((name) => ({ name, inputSchema: { type: 'object' } }));

describe('the registry table', () => {
  it('starts with the five local tools of the chapter and their tiers', () => {
    expect(local.map((row) => `${row.name}:${row.tier}:${row.origin.kind}`)).toEqual(['get_time:auto:local', 'get_weather:auto:local', 'add:auto:local', 'write_note:suggest:local', 'delete_file:approve:local']);
    expect(local.every((row) => row.description.length > 0)).toBe(true);
  });

  it('records where a remote tool came from', () => {
    const rows = toolRows([{ name: 'mcp__echo__add', description: 'Add', parameters: [], risk: 'auto', source: { kind: 'mcp', server: 'echo', remoteName: 'add' } }]);
    expect(rows).toEqual([{ name: 'mcp__echo__add', origin: { kind: 'mcp', server: 'echo', remoteName: 'add' }, tier: 'auto', description: 'Add' }]);
  });

  it('resolves a server call to the remote tool, never to the local namesake', () => {
    const rows = [...local, remote('mcp__echo__add', 'add')];
    expect(resolveCall({ tool: 'add', server: 'echo' }, rows, 'mcp__echo__')?.name).toBe('mcp__echo__add');
    expect(resolveCall({ tool: 'add' }, rows, 'mcp__echo__')?.origin.kind).toBe('local');
    // Not merged (the clash refused it): the local add must not stand in for it.
    expect(resolveCall({ tool: 'add', server: 'echo' }, local, '')).toBeNull();
    // A registry that did not record its source: found by prefix.
    const unlabeled = [...local, { ...remote('mcp__echo__echo', 'echo'), origin: { kind: 'mcp' as const, server: null, remoteName: 'x' } }];
    expect(resolveCall({ tool: 'echo', server: 'echo' }, unlabeled, 'mcp__echo__')?.name).toBe('mcp__echo__echo');
  });
});

describe('checking a merge that said it succeeded', () => {
  it('finds nothing wrong with a clean prefixed merge', () => {
    expect(checkMerge(listed('echo', 'add'), 'mcp__echo__', local, [...local, remote('mcp__echo__echo', 'echo'), remote('mcp__echo__add', 'add')])).toEqual([]);
  });

  it('names a silently skipped tool', () => {
    expect(checkMerge(listed('echo', 'add'), '', local, [...local, remote('echo', 'echo')])).toEqual([{ kind: 'skipped', remoteName: 'add' }]);
  });

  it('names a silent rename', () => {
    expect(checkMerge(listed('add'), '', local, [...local, remote('add_2', 'add')])).toEqual([{ kind: 'renamed', remoteName: 'add', expected: 'add', actual: 'add_2' }]);
  });

  it('names a local tool replaced by the remote one', () => {
    const after = local.map((row) => (row.name === 'add' ? remote('add', 'add') : row));
    expect(checkMerge(listed('add'), '', local, after)).toEqual([{ kind: 'replaced-local', name: 'add' }]);
  });
});
