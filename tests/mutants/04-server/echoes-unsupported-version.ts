import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'agreeing to any protocol version',
  why: 'initialize echoes whatever version the client asked for, even one this server does not speak, instead of answering with its own latest and letting the client decide.',
  section: 'initialize',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: '      protocolVersion: known ? requested : LATEST_PROTOCOL_VERSION,',
      replace: `      // BUG: no negotiation; the client's version is echoed even when unknown.
      protocolVersion: known || requested ? requested : LATEST_PROTOCOL_VERSION,`,
    },
  ],
  caughtBy: ['answers a version it does not know with its own latest (2025-11-25), and lets the client decide'],
} satisfies Mutant;
