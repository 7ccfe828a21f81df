import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a response carrying neither result nor error accepted as a success',
  why: '"Anything with an id and no error is a success": the client resolves the request with undefined, as if the server had answered.',
  section: 'parse-and-validate',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: `  if (hasResult === hasError) return invalid('a response carries exactly one of "result" and "error"', readableId);
  if (hasResult) {`,
      replace: `  if (hasResult && hasError) return invalid('a response carries exactly one of "result" and "error"', readableId); // MUTANT: only "both" is refused
  if (!hasError) { // MUTANT: no error is taken to mean success`,
    },
  ],
  caughtBy: ['a response carrying neither result nor error'],
} satisfies Mutant;
