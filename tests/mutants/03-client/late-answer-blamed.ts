import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a late answer after a timeout blamed on the server',
  why: 'The specification expects the race between a timeout and the answer (the server may not have seen the cancellation yet) and says to ignore the late answer. A client that forgets which requests timed out reports every late answer as a protocol error, blaming a server that did nothing wrong.',
  section: 'timeouts',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: "      if (late !== undefined) return this.listeners.emit({ type: 'late-response', id: late.id, method: late.method });",
      replace: `      // BUG: a late answer is treated like an id that was never sent.
      void late;`,
    },
  ],
  caughtBy: ['after a timeout it sends notifications/cancelled naming the request, and a late answer is ignored quietly'],
} satisfies Mutant;
