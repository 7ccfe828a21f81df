import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "an unsupported version refused but the connection kept",
  why: "The spec says the client should disconnect when it cannot speak the server's version; staying open leaves a session nobody can use and a server process running.",
  section: 'version-negotiation',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: `      this.shutdown(\`unsupported protocol version "\${result.protocolVersion}"\`, true);
`,
      replace: `      // MUTANT: no disconnect
`,
    },
  ],
  caughtBy: [
    "refuses a version it does not support: UnsupportedVersionError, \"closed\", and stdin ended",
    "Any session › for any session: writes the same messages, goes through the same states and settles each call the same way as the reference",
  ],
} satisfies Mutant;
