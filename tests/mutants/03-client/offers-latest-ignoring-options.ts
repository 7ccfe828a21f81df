import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the offered version ignores the options",
  why: "The client always offers the latest version it knows, so a host that pinned an older version for an older server cannot.",
  section: 'version-negotiation',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: `      const { protocolVersion, clientInfo } = this.settings;`,
      replace: `      const { clientInfo } = this.settings;
      const protocolVersion = LATEST_PROTOCOL_VERSION; // MUTANT: the option is ignored`,
    },
  ],
  caughtBy: [
    "offers the version set in the options",
  ],
} satisfies Mutant;
