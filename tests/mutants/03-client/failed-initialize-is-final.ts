import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a failed handshake that cannot be retried',
  why: 'After an error response to initialize the client closes itself, although a failed initialize should leave it in "new" so the caller may try again.',
  section: 'initialize-once',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: "      raw = await this.request('initialize', { protocolVersion, capabilities: this.settings.capabilities, clientInfo }, this.settings.requestTimeoutMs, false);",
      replace: `      raw = await this.request('initialize', { protocolVersion, capabilities: this.settings.capabilities, clientInfo }, this.settings.requestTimeoutMs, false);
    } catch (error) {
      // BUG: any failed initialize closes the client for good.
      this.shutdown('initialize failed', true);
      throw error;`,
    },
  ],
  caughtBy: ['after an error response, initialize() rejects with McpRpcError, stays "new", and a retry works with a new id'],
} satisfies Mutant;
