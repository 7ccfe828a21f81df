import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'an invalid message answered with silence',
  why: 'A server that drops what it cannot read leaves its sender waiting for an answer that never comes; -32600 tells it what was wrong.',
  section: 'ids-and-methods',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: '    if (!outcome.ok) return encodeError(outcome.id, ErrorCode.InvalidRequest, `Invalid request: ${outcome.reason}`);',
      replace: '    if (!outcome.ok) return null; // MUTANT: nothing is answered',
    },
  ],
  caughtBy: ['an invalid message gets -32600: with its id when one can be read, with no id member when not (never "id": null)'],
} satisfies Mutant;
