// What the stepper's two page-side drivers share (ReferenceDriver: McpClient; EraDriver: the
// dual-era client): the listener set, the client slot, the error shape of a failed op, flush and
// dispose. Each subclass creates its client in start() and maps the stepper's ops onto it in run().

import type { Unsubscribe } from '../../protocol/transport.ts';
import { errorInfo, type CallOutcome, type DriverEvent, type DriverOp } from '../../sandbox/client-driver.ts';

export abstract class PageDriver<Client extends { close(): void }> {
  protected client: Client | null = null;
  protected detach: Unsubscribe = () => {};
  private readonly listeners = new Set<(event: DriverEvent) => void>();

  /** One stepper op on the client; a throw becomes the op's error. */
  protected abstract run(client: Client, op: DriverOp): Promise<unknown>;

  async perform(op: DriverOp): Promise<CallOutcome> {
    const client = this.client;
    if (client === null) return { ok: false, error: errorInfo(new Error('the client was not created')) };
    try {
      return { ok: true, value: await this.run(client, op) };
    } catch (error) {
      return { ok: false, error: errorInfo(error) };
    }
  }

  flush(): Promise<void> {
    // The clients emit synchronously; one macrotask lets awaiting callers' continuations run too.
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

  protected emit(event: DriverEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}
