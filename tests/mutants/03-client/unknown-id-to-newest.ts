import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a response with an unknown id handed to "the latest request"',
  why: "When no request waits under the response's id, the newest waiting request gets it anyway, so a stray or duplicate answer is mis-delivered instead of reported.",
  section: 'pairing-by-id',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: '    const waiter = this.pending.take(response.id);',
      replace: `    // BUG: an unmatched response is given to the newest waiter instead of being reported.
    const newest = this.pending.snapshot().at(-1);
    const waiter = this.pending.take(response.id) ?? (newest === undefined ? undefined : this.pending.take(newest.id));`,
    },
  ],
  caughtBy: ['a response with an unknown id is reported as a protocol error: not delivered, not thrown'],
} satisfies Mutant;
