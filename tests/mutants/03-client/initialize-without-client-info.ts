import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "initialize sent without clientInfo",
  why: "clientInfo is required in initialize params: a strict server (the SDK validates it) refuses the handshake, and the server cannot tell clients apart in its logs.",
  section: 'handshake',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: `      raw = await this.request('initialize', { protocolVersion, capabilities: this.settings.capabilities, clientInfo }, this.settings.requestTimeoutMs, false);`,
      replace: `      void clientInfo; // MUTANT: clientInfo left out
      raw = await this.request('initialize', { protocolVersion, capabilities: this.settings.capabilities }, this.settings.requestTimeoutMs, false);`,
    },
  ],
  caughtBy: [
    "initialize() sends one initialize request with protocolVersion, capabilities and clientInfo",
  ],
} satisfies Mutant;
