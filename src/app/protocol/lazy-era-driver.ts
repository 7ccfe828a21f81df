// A ClientDriver that loads the dual-era client on start(): the protocol services are made at page
// load, and the era code (client, probe, session) must stay out of the first paint.

import type { FramingName } from '../../protocol/framing/types.ts';
import type { ByteTransport, Unsubscribe } from '../../protocol/transport.ts';
import { errorInfo, type CallOutcome, type ClientDriver, type DriverEvent, type DriverOp } from '../../sandbox/client-driver.ts';
import type { EraClientConfig } from './stepper-types.ts';

export class LazyEraDriver implements ClientDriver {
  readonly kind = 'reference' as const;
  /** Reading an answer can make this client write (fallback, retry): the stepper waits for those bytes. */
  readonly writesOnItsOwn = true;
  private inner: ClientDriver | null = null;
  private readonly listeners = new Set<(event: DriverEvent) => void>();
  private disposed = false;

  constructor(private readonly config: EraClientConfig) {}

  async start(transport: ByteTransport, framing: FramingName): Promise<CallOutcome> {
    try {
      const { EraDriver } = await import('./era-driver.ts');
      if (this.disposed) return { ok: false, error: errorInfo(new Error('the run was thrown away')) };
      const inner = new EraDriver(this.config);
      inner.onEvent((event) => {
        for (const listener of [...this.listeners]) listener(event);
      });
      this.inner = inner;
      return inner.start(transport, framing);
    } catch (error) {
      return { ok: false, error: errorInfo(error) };
    }
  }

  perform(op: DriverOp): Promise<CallOutcome> {
    return this.inner ? this.inner.perform(op) : Promise.resolve({ ok: false, error: errorInfo(new Error('the client was not created')) });
  }

  flush(): Promise<void> {
    return this.inner ? this.inner.flush() : Promise.resolve();
  }

  onEvent(listener: (event: DriverEvent) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    this.disposed = true;
    this.inner?.dispose();
    this.listeners.clear();
  }
}
