// The registry as the Chapter loop's table shows it: one row per tool with where it came from and
// its risk tier. Plain data, so the learner worker can send it across; and the rule that finds
// which registry entry a script's call means.

import type { RiskTier, ToolSpec } from '../protocol/registry.ts';

export type ToolOrigin = { kind: 'local' } | { kind: 'mcp'; server: string | null; remoteName: string };

export interface ToolRow {
  name: string;
  origin: ToolOrigin;
  tier: RiskTier;
  description: string;
}

/** Rows from registry specs. A learner's registry may hand back odd values; they are shown as they are. */
export function toolRows(specs: readonly ToolSpec[]): ToolRow[] {
  return specs.map((spec) => ({
    name: String(spec.name),
    origin:
      spec.source?.kind === 'mcp'
        ? { kind: 'mcp', server: typeof spec.source.server === 'string' ? spec.source.server : null, remoteName: String(spec.source.remoteName) }
        : { kind: 'local' },
    tier: spec.risk,
    description: typeof spec.description === 'string' ? spec.description : '',
  }));
}

/**
 * The row a call means. With `server`, the remote tool whose name on that server is `tool`, under
 * whatever name it was registered; a registry whose entries do not record their server falls back
 * to `prefix + tool` (never to a bare local name: that would call the local `add` for the remote one).
 */
export function resolveCall(call: { tool: string; server?: string }, rows: readonly ToolRow[], prefix: string): ToolRow | null {
  if (call.server === undefined) return rows.find((row) => row.name === call.tool) ?? null;
  const bySource = rows.find((row) => row.origin.kind === 'mcp' && row.origin.remoteName === call.tool && (row.origin.server === null || row.origin.server === call.server));
  if (bySource) return bySource;
  if (prefix === '') return null;
  return rows.find((row) => row.name === prefix + call.tool && row.origin.kind === 'mcp') ?? null;
}
