// The dual-era client (src/protocol/era/dual-era-client.ts) driving the stepper: the era switch's
// 2026-07-28 and probe runs. The stepper's ops map onto it: `initialize` is connect() (the
// server/discover probe, and on a legacy answer the fallback handshake over the same pipe), the
// rest are the same calls in whichever era the probe found. Its requests are built by the
// project's own era code, so every arrow's bytes are what the reference dual-era client sends.

import { DualEraClient, type DualEraEvent } from '../../protocol/era/dual-era-client.ts';
import type { FramingName } from '../../protocol/framing/types.ts';
import type { ByteTransport } from '../../protocol/transport.ts';
import { errorInfo, type CallOutcome, type ClientDriver, type DriverOp } from '../../sandbox/client-driver.ts';
import { PageDriver } from './page-driver.ts';
import type { EraClientConfig } from './stepper-types.ts';

export class EraDriver extends PageDriver<DualEraClient> implements ClientDriver {
  readonly kind = 'reference' as const;
  /** Reading an answer can make this client write (fallback, retry): the stepper waits for those bytes. */
  readonly writesOnItsOwn = true;

  constructor(private readonly config: EraClientConfig) {
    super();
  }

  async start(transport: ByteTransport, framing: FramingName): Promise<CallOutcome> {
    try {
      // No timeouts: the stepper holds the server's answer until the learner presses Step, and on
      // stdio a probe that times out would be taken for a legacy server's silence.
      const client = new DualEraClient(
        { kind: 'stdio', transport, framing },
        {
          era: this.config.mode === 'modern' ? { pin: this.config.versions?.[0] ?? '2026-07-28' } : 'auto',
          requestTimeoutMs: Infinity,
          probeTimeoutMs: Infinity,
          ...(this.config.versions ? { modernVersions: this.config.versions } : {}),
        },
      );
      this.detach = client.on((event) => this.forward(event));
      this.client = client;
      return { ok: true, value: null };
    } catch (error) {
      return { ok: false, error: errorInfo(error) };
    }
  }

  protected async run(client: DualEraClient, op: DriverOp): Promise<unknown> {
    switch (op.op) {
      case 'initialize':
        return client.connect();
      case 'notifyInitialized':
        // connect() sends notifications/initialized itself after a fallback; nothing to do.
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

  /** The client's events the stepper knows; the probe's verdict shows as connect()'s result. */
  private forward(event: DualEraEvent): void {
    switch (event.type) {
      case 'sent':
      case 'received':
        this.emit({ type: event.type, message: event.message });
        return;
      case 'state':
        this.emit({ type: 'state', from: event.from, to: event.to, cause: event.cause });
        return;
      case 'protocol-error':
        this.emit({ type: 'protocol-error', detail: event.detail });
        return;
      case 'notification':
        this.emit({ type: 'notification', message: event.message });
        return;
      default:
        return;
    }
  }
}
