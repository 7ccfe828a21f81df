import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "notifications/initialized not acted on",
  why: "The notification is swallowed without opening the gate, so the server refuses tools/list and tools/call for the whole session.",
  section: 'notifications',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: `      if (this.#phase === 'awaiting-initialized') this.#phase = 'ready';`,
      replace: `      // MUTANT: the gate never opens`,
    },
  ],
  caughtBy: [
    "once notifications/initialized has arrived, the same requests work",
    "Any sequence of messages › for any messages, in strict and lenient mode: answers each one as the reference does, and moves through the same phases",
  ],
} satisfies Mutant;
