import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'skipping the version check',
  why: 'The client accepts whatever protocolVersion the server answers with, instead of disconnecting when it does not speak that version.',
  section: 'version-negotiation',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: '    if (!this.settings.supportedVersions.includes(result.protocolVersion)) {',
      replace: `    // BUG: the negotiated version is never compared with the versions this client speaks.
    if (false as boolean) {`,
    },
  ],
  caughtBy: [
    'refuses a version it does not support: UnsupportedVersionError, "closed", and stdin ended',
    'supportedVersions narrows what it accepts',
  ],
} satisfies Mutant;
