import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'cancelling initialize on timeout',
  why: 'A timed-out initialize sends notifications/cancelled, which the specification forbids for initialize.',
  section: 'timeouts',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: "      raw = await this.request('initialize', { protocolVersion, capabilities: this.settings.capabilities, clientInfo }, this.settings.requestTimeoutMs, false);",
      replace: "      raw = await this.request('initialize', { protocolVersion, capabilities: this.settings.capabilities, clientInfo }, this.settings.requestTimeoutMs, true); // BUG: initialize must never be cancelled",
    },
  ],
  caughtBy: ['initialize is never cancelled: when it times out, no notifications/cancelled goes out and it can be retried'],
} satisfies Mutant;
