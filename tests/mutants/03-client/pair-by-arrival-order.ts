import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'responses paired by arrival order instead of by id',
  why: "The chapter's id-matching failure: each response goes to the oldest request still waiting, as if answers came back first in, first out. Two calls whose answers come back reversed get each other's results.",
  section: 'pairing-by-id',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: '    const waiter = this.pending.take(response.id);',
      replace: `    // BUG: first sent, first answered; the response's id is never looked at.
    const oldest = this.pending.snapshot()[0];
    const waiter = oldest === undefined ? undefined : this.pending.take(oldest.id);`,
    },
  ],
  caughtBy: [
    'answers that come back in reverse order still reach the right calls',
    'two answers in one chunk, newest first, are each delivered by id',
  ],
} satisfies Mutant;
