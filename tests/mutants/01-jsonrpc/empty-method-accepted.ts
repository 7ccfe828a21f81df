import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "an empty method accepted",
  why: "\"method\": \"\" names nothing: the server can only answer -32601 later, where the lesson refuses the message itself.",
  section: 'parse-and-validate',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: `    if (typeof value.method !== 'string' || value.method === '') return invalid('"method" must be a non-empty string', readableId);`,
      replace: `    if (typeof value.method !== 'string') return invalid('"method" must be a non-empty string', readableId); // MUTANT`,
    },
  ],
  caughtBy: [
    "a method that is not a non-empty string, or params that are not an object or an array",
    "parseMessage accepts well-formed messages › for any message, valid or broken in one field: parseMessage and validateMessage decide as the reference does",
  ],
} satisfies Mutant;
