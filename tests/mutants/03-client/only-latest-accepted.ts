import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "only the latest version accepted in the answer",
  why: "A server that speaks an older version the client also supports is refused: negotiation means accepting any version in the supported list.",
  section: 'version-negotiation',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: `    if (!this.settings.supportedVersions.includes(result.protocolVersion)) {`,
      replace: `    if (result.protocolVersion !== LATEST_PROTOCOL_VERSION) { // MUTANT`,
    },
  ],
  caughtBy: [
    "accepts an older version it supports when the server answers with one",
    "Any session › for any session: writes the same messages, goes through the same states and settles each call the same way as the reference",
  ],
} satisfies Mutant;
