// The reference client drives the stepper: the project's own McpClient, on the page (it is the
// project's code, so it needs no sandbox), plus the reference registerMcpTools for the lab.

import { McpClient } from '../../protocol/client.ts';
import type { FramingName } from '../../protocol/framing/types.ts';
import type { ToolInfo } from '../../protocol/mcp.ts';
import { registerMcpTools } from '../../protocol/register-mcp-tools.ts';
import * as registryModule from '../../protocol/registry.ts';
import type { ByteTransport, Unsubscribe } from '../../protocol/transport.ts';
import { errorInfo, type CallOutcome, type ClientDriver, type DriverEvent, type DriverOp, type RegisterOutcome, type RegisterRunner } from '../../sandbox/client-driver.ts';
import { createLocalRegistry, registryView } from '../../sandbox/local-tools.ts';

export class ReferenceDriver implements ClientDriver {
  readonly kind = 'reference' as const;
  private client: McpClient | null = null;
  private readonly listeners = new Set<(event: DriverEvent) => void>();
  private detach: Unsubscribe = () => {};

  async start(transport: ByteTransport, framing: FramingName): Promise<CallOutcome> {
    try {
      // No request timeout: a learner may take minutes between two presses of Step.
      const client = new McpClient(transport, { framing, requestTimeoutMs: Infinity });
      this.detach = client.on((event) => {
        if (event.type === 'sent') this.emit({ type: 'sent', message: event.message });
        else if (event.type === 'received') this.emit({ type: 'received', message: event.message });
        // A late answer is ignored quietly by design (and the stepper never times out anyway).
        else if (event.type === 'late-response') return;
        else this.emit(event);
      });
      this.client = client;
      return { ok: true, value: null };
    } catch (error) {
      return { ok: false, error: errorInfo(error) };
    }
  }

  async perform(op: DriverOp): Promise<CallOutcome> {
    const client = this.client;
    if (client === null) return { ok: false, error: errorInfo(new Error('the client was not created')) };
    try {
      switch (op.op) {
        case 'initialize':
          return { ok: true, value: await client.initialize() };
        case 'notifyInitialized':
          client.notifyInitialized();
          return { ok: true, value: null };
        case 'listTools':
          return { ok: true, value: await client.listTools() };
        case 'callTool':
          return { ok: true, value: await client.callTool(op.name, op.args) };
        case 'close':
          client.close();
          return { ok: true, value: null };
      }
    } catch (error) {
      return { ok: false, error: errorInfo(error) };
    }
  }

  flush(): Promise<void> {
    // The client emits synchronously; one macrotask lets awaiting callers' continuations run too.
    return new Promise((resolve) => setTimeout(resolve, 0));
  }

  onEvent(listener: (event: DriverEvent) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    this.detach();
    this.listeners.clear();
    this.client = null;
  }

  private emit(event: DriverEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}

export const referenceRegisterRunner: RegisterRunner = {
  kind: 'reference',
  async run(prefix: string, tools: readonly ToolInfo[]): Promise<RegisterOutcome> {
    const registry = createLocalRegistry(registryModule);
    // The tools the live server listed; calling them is not part of this step.
    const source = {
      listTools: async () => [...tools],
      callTool: async () => {
        throw new Error('not called in this scenario');
      },
    };
    try {
      const count = await registerMcpTools(registry, source, { prefix, server: 'echo' });
      return { ok: true, count, error: null, registry: registryView(registry) };
    } catch (error) {
      return { ok: false, count: null, error: errorInfo(error), registry: registryView(registry) };
    }
  },
};
