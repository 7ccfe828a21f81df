// What a merge did, checked against what the server listed. A registerMcpTools that "succeeds" but
// skipped a clashing tool, renamed one on its own, or replaced a local tool hides the bug from the
// learner until the model calls the wrong tool; this names it instead.

import type { ToolInfo } from '../../protocol/mcp.ts';
import type { ToolRow } from '../../sandbox/tool-table.ts';

export type MergeProblem =
  /** Listed by the server, not in the registry afterwards. */
  | { kind: 'skipped'; remoteName: string }
  /** In the registry under another name than prefix + name. */
  | { kind: 'renamed'; remoteName: string; expected: string; actual: string }
  /** A local tool is gone or now points at the server. */
  | { kind: 'replaced-local'; name: string };

/**
 * Problems of a merge that reported success. `localBefore` is the registry before the merge,
 * `after` the registry afterwards, `listed` what tools/list returned.
 */
export function checkMerge(listed: readonly ToolInfo[], prefix: string, localBefore: readonly ToolRow[], after: readonly ToolRow[]): MergeProblem[] {
  const problems: MergeProblem[] = [];
  for (const local of localBefore) {
    const now = after.find((row) => row.name === local.name);
    if (now === undefined || now.origin.kind !== 'local') problems.push({ kind: 'replaced-local', name: local.name });
  }
  const localNames = new Set(localBefore.map((row) => row.name));
  for (const tool of listed) {
    const expected = prefix + tool.name;
    const remote = after.find((row) => row.origin.kind === 'mcp' && row.origin.remoteName === tool.name);
    if (remote === undefined) {
      // A registry that records no source: an entry under the expected name that is not the local one counts.
      const unlabeled = after.find((row) => row.name === expected && !(localNames.has(expected) && row.origin.kind === 'local'));
      if (unlabeled === undefined) problems.push({ kind: 'skipped', remoteName: tool.name });
      continue;
    }
    if (remote.name !== expected) problems.push({ kind: 'renamed', remoteName: tool.name, expected, actual: remote.name });
  }
  return problems;
}
