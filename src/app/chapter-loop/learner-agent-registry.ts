// The learner's registerMcpTools (exercise 5) for the Chapter loop: it runs in the learner worker
// against a real registry there; its client.listTools()/callTool() come back here and go through
// the page's real McpClient (so every frame crosses the live host), and the turn's registry calls
// run in the worker too. A worker that hangs is stopped by its handle; every wait then ends.

import type { McpToolSource } from '../../protocol/register-mcp-tools.ts';
import type { ToolOutcome } from '../../protocol/registry.ts';
import { errorInfo, type ErrorInfo } from '../../sandbox/client-driver.ts';
import { LearnerWorkerHandle, type LearnerWorkerLike, type LearnerWorkerOptions } from '../../sandbox/learner-worker-client.ts';
import type { AgentRpcCall, LearnerSource, LearnerToPage } from '../../sandbox/learner-worker-messages.ts';
import type { AgentRegistry, MergeResult } from './agent-registry.ts';

const stopped = (reason: string): ErrorInfo => ({ name: 'Stopped', message: reason, line: null, code: null });

export function createLearnerAgentRegistry(source: LearnerSource, createWorker: () => LearnerWorkerLike, options: LearnerWorkerOptions = {}): AgentRegistry {
  let handle: LearnerWorkerHandle | null = null;
  let crashReason: string | null = null;
  let nextId = 1;
  const executions = new Map<number, (outcome: ToolOutcome) => void>();
  let merged: ((result: MergeResult) => void) | null = null;
  let client: McpToolSource | null = null;

  async function answer(rpcId: number, call: AgentRpcCall): Promise<void> {
    try {
      if (client === null) throw new Error('no connection to the server');
      const value = call.method === 'listTools' ? await client.listTools() : await client.callTool(call.name, call.args);
      handle?.post({ type: 'agent-rpc-result', rpcId, outcome: { ok: true, value: JSON.parse(JSON.stringify(value ?? null)) as unknown } });
    } catch (error) {
      handle?.post({ type: 'agent-rpc-result', rpcId, outcome: { ok: false, error: errorInfo(error) } });
    }
  }

  function start(): LearnerWorkerHandle {
    const created = new LearnerWorkerHandle(createWorker, options);
    created.onCrash((reason) => {
      crashReason = reason;
      merged?.({ ok: false, count: null, error: stopped(reason), tools: [] });
      merged = null;
      for (const settle of executions.values()) settle({ ok: false, text: reason });
      executions.clear();
    });
    created.onMessage((message: LearnerToPage) => {
      switch (message.type) {
        case 'agent-rpc':
          void answer(message.rpcId, message.call);
          return;
        case 'agent-merged':
          merged?.(message.outcome);
          merged = null;
          return;
        case 'agent-executed':
          executions.get(message.execId)?.(message.outcome);
          executions.delete(message.execId);
          return;
        default:
          return;
      }
    });
    return created;
  }

  return {
    kind: 'learner',
    merge(prefix, mcp) {
      client = mcp;
      handle?.dispose();
      crashReason = null;
      handle = start();
      const current = handle;
      return new Promise((resolve) => {
        merged = resolve;
        current.post({ type: 'agent-merge', source, prefix });
      });
    },
    execute(name, args) {
      if (handle === null || crashReason !== null) return Promise.resolve({ ok: false, text: crashReason ?? 'Your registry is not set up: connect and merge first.' });
      const execId = nextId++;
      const current = handle;
      return new Promise((resolve) => {
        executions.set(execId, resolve);
        current.post({ type: 'agent-execute', execId, name, args });
      });
    },
    dispose() {
      handle?.dispose();
      handle = null;
      client = null;
    },
  };
}
