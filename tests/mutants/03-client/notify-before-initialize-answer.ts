import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'notifications/initialized sent too early',
  why: 'notifyInitialized() is allowed in "new" as well, so the notification can go out before the initialize answer has arrived (the chapter\'s initialization-order trap, from the other side).',
  section: 'handshake',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: "    if (this.currentState !== 'initialized') throw this.stateError('notifyInitialized');",
      replace: `    // BUG: 'new' is accepted too, before initialize has been answered.
    if (this.currentState !== 'initialized' && this.currentState !== 'new') throw this.stateError('notifyInitialized');`,
    },
  ],
  caughtBy: ['notifyInitialized() before initialize has been answered is refused, and no notification goes out'],
} satisfies Mutant;
