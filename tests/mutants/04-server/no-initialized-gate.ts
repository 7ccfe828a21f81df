import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'no initialized gate',
  why: "tools/list and tools/call are served as soon as initialize has been answered, without waiting for notifications/initialized (lenient like the official SDK, but not the chapter's server).",
  section: 'initialized-gate',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: "    if (this.#phase === 'awaiting-initialized' && this.#requireInitialized && GATED_METHODS.has(method)) {",
      replace: `    // BUG: the gate is never closed.
    if (this.#phase === 'awaiting-initialized' && this.#requireInitialized && GATED_METHODS.has(method) && (false as boolean)) {`,
    },
  ],
  caughtBy: ['after initialize but before notifications/initialized, tools/list and tools/call are refused with -32600'],
} satisfies Mutant;
