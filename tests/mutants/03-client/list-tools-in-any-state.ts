import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'listTools() sent in any state',
  why: 'The state check is written for callTool and forgotten for listTools: tools/list goes out before the handshake, or after close() onto a closed stdin.',
  section: 'ready-gate',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: `    this.requireReady('tools/list');`,
      replace: `    // MUTANT: no state check for tools/list`,
    },
  ],
  caughtBy: [
    "in \"new\", callTool() and listTools() are refused with ClientStateError and nothing is sent",
    "Any session › for any session: writes the same messages, goes through the same states and settles each call the same way as the reference",
  ],
} satisfies Mutant;
