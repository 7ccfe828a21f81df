import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "requireInitialized: false ignored",
  why: "The lenient mode exists for clients that never send notifications/initialized (the official SDK accepts them); ignoring it refuses them forever.",
  section: 'initialized-gate',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: `    if (this.#phase === 'awaiting-initialized' && this.#requireInitialized && GATED_METHODS.has(method)) {`,
      replace: `    if (this.#phase === 'awaiting-initialized' && GATED_METHODS.has(method)) { // MUTANT: the option is ignored`,
    },
  ],
  caughtBy: [
    "with requireInitialized: false (the official SDK's lenient way), tools/list works right after initialize",
    "Any sequence of messages › for any messages, in strict and lenient mode: answers each one as the reference does, and moves through the same phases",
  ],
} satisfies Mutant;
