import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "notifyInitialized() allowed before initialize is answered",
  why: "notifications/initialized goes out before the server has answered initialize, so the server hears \"ready\" from a client that has not agreed on a version yet.",
  section: 'ready-gate',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: `    if (this.currentState !== 'initialized') throw this.stateError('notifyInitialized');`,
      replace: `    if (this.currentState === 'ready' || this.currentState === 'closed') throw this.stateError('notifyInitialized'); // MUTANT`,
    },
  ],
  caughtBy: [
    "notifyInitialized() before initialize has been answered is refused, and no notification goes out",
  ],
} satisfies Mutant;
