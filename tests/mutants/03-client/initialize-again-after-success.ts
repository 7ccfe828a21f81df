import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "initialize() accepted again once the handshake succeeded",
  why: "A second initialize on a live session restarts a handshake the server has already finished; the spec allows one per connection.",
  section: 'initialize-once',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: `    if (this.currentState !== 'new') throw this.stateError('initialize');`,
      replace: `    if (this.currentState === 'closed') throw this.stateError('initialize'); // MUTANT`,
    },
  ],
  caughtBy: [
    "once initialize has succeeded, initialize() is refused",
  ],
} satisfies Mutant;
