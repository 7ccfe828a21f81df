import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a response carrying both result and error accepted',
  why: 'Exactly one of "result" and "error" is the rule: with both, the receiver cannot know whether the request succeeded, and this parser takes it for a success.',
  section: 'parse-and-validate',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: '  if (hasResult && hasError) return invalid(\'a response carries exactly one of "result" and "error", not both\', readableId);',
      replace: '  // MUTANT: only "neither" is refused: a response with both reads as a success',
    },
  ],
  caughtBy: ['a response carrying both result and error'],
} satisfies Mutant;
