// Where the Chapter loop's registry lives: on the page for the reference registerMcpTools, or in
// the learner worker for the learner's own (learner-agent-registry.ts). Both merge over the page's
// real McpClient (handed in as an McpToolSource) and execute by name; neither ever throws.

import type { McpToolSource } from '../../protocol/register-mcp-tools.ts';
import { registerMcpTools, riskFromAnnotations } from '../../protocol/register-mcp-tools.ts';
import * as registryModule from '../../protocol/registry.ts';
import type { ToolOutcome } from '../../protocol/registry.ts';
import { errorInfo, type DriverKind, type ErrorInfo } from '../../sandbox/client-driver.ts';
import { CHAPTER_TOOL_NAMES, createLocalRegistry } from '../../sandbox/local-tools.ts';
import type { MergeResult } from '../../sandbox/learner-worker-messages.ts';
import { toolRows, type ToolRow } from '../../sandbox/tool-table.ts';

/** The server's name in tool sources and in the suggested prefix `mcp__echo__`. */
export type { MergeResult };

export const AGENT_SERVER_NAME = 'echo';
export const AGENT_PREFIX = `mcp__${AGENT_SERVER_NAME}__`;

export interface AgentRegistry {
  readonly kind: DriverKind;
  merge(prefix: string, source: McpToolSource): Promise<MergeResult>;
  execute(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  dispose(): void;
}

/** The table before any merge: the chapter's five local tools. */
export function localToolRows(): ToolRow[] {
  return toolRows(createLocalRegistry(registryModule, CHAPTER_TOOL_NAMES).list());
}

/** The reference registry and registerMcpTools, on the page. */
export function createReferenceAgentRegistry(): AgentRegistry {
  const registry = createLocalRegistry(registryModule, CHAPTER_TOOL_NAMES);
  return {
    kind: 'reference',
    async merge(prefix, source) {
      try {
        const count = await registerMcpTools(registry, source, { prefix, server: AGENT_SERVER_NAME, risk: riskFromAnnotations });
        return { ok: true, count, error: null, tools: toolRows(registry.list()) };
      } catch (error) {
        return { ok: false, count: null, error: errorInfo(error), tools: toolRows(registry.list()) };
      }
    },
    execute: (name, args) => registry.execute(name, args),
    dispose() {},
  };
}
