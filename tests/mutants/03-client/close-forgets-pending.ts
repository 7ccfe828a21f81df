import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'closing without settling the pending table',
  why: 'close() ends stdin and moves to "closed", but the requests still waiting are never rejected: their callers hang until a timeout (60 s by default).',
  section: 'closing',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: '    this.pending.rejectAll((request) => new ClientClosedError(`${request.method} (id ${JSON.stringify(request.id)})`, reason));',
      replace: '    // BUG: pending requests are left waiting forever.',
    },
  ],
  caughtBy: [
    'close() ends the server\'s stdin, moves to "closed" and rejects every pending request with ClientClosedError',
    'when the server goes away, pending requests are rejected and the client is "closed"',
  ],
} satisfies Mutant;
