import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a response carrying neither result nor error accepted as a success',
  why: '"Anything with an id and no error is a success": the client resolves the request with undefined, as if the server had answered.',
  section: 'parse-and-validate',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: `  if (!hasResult && !hasError) {
    // Read as a request, it lacks "method"; read as a response, it lacks "result" or "error".`,
      replace: `  if (false) { // MUTANT: only "both" is refused`,
    },
    {
      find: `  if (hasResult) {
    if (!hasId || !isValidId(value.id))`,
      replace: `  if (!hasError) { // MUTANT: no error is taken to mean success
    if (!hasId || !isValidId(value.id))`,
    },
  ],
  caughtBy: ['a response carrying neither result nor error'],
} satisfies Mutant;
