// Small wording helpers shared by the Chapter loop's components: a tool's origin and its arguments.

import type { AgentText } from './text.ts';
import type { ToolOrigin } from '../../sandbox/tool-table.ts';

export function originText(t: AgentText, origin: ToolOrigin): string {
  if (origin.kind === 'local') return t('table.local');
  return origin.server === null ? t('table.remoteUnknownServer', { name: origin.remoteName }) : t('table.remote', { server: origin.server, name: origin.remoteName });
}

export function argsText(args: Record<string, unknown>): string {
  return JSON.stringify(args, null, 2);
}
