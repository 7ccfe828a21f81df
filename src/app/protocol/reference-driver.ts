// The reference client drives the stepper: the project's own McpClient, on the page (it is the
// project's code, so it needs no sandbox), plus the reference registerMcpTools for the lab.

import { McpClient } from '../../protocol/client.ts';
import type { FramingName } from '../../protocol/framing/types.ts';
import type { ToolInfo } from '../../protocol/mcp.ts';
import { registerMcpTools } from '../../protocol/register-mcp-tools.ts';
import * as registryModule from '../../protocol/registry.ts';
import type { ByteTransport } from '../../protocol/transport.ts';
import { errorInfo, type CallOutcome, type ClientDriver, type DriverOp, type RegisterOutcome, type RegisterRunner } from '../../sandbox/client-driver.ts';
import { PageDriver } from './page-driver.ts';
import { createLocalRegistry, registryView } from '../../sandbox/local-tools.ts';

export class ReferenceDriver extends PageDriver<McpClient> implements ClientDriver {
  readonly kind = 'reference' as const;

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

  protected async run(client: McpClient, op: DriverOp): Promise<unknown> {
    switch (op.op) {
      case 'initialize':
        return client.initialize();
      case 'notifyInitialized':
        client.notifyInitialized();
        return null;
      case 'listTools':
        return client.listTools();
      case 'callTool':
        return client.callTool(op.name, op.args);
      case 'close':
        client.close();
        return null;
    }
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
