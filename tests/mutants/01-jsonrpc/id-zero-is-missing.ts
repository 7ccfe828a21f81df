import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'id 0 read as "no id"',
  why: '`!value.id` is true for 0, so a response with id 0 is refused as a message with neither id nor method. The official SDK client numbers its requests from 0, so the answer to its initialize never arrives.',
  section: 'parse-and-validate',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: "    if (!hasId || !isValidId(value.id)) return invalid('a result response needs a string or integer id');",
      replace: "    if (!value.id || !isValidId(value.id)) return invalid('a result response needs a string or integer id'); // MUTANT: a falsy id counts as missing",
    },
  ],
  caughtBy: ['id 0 is an ordinary id, in a request and in a response'],
} satisfies Mutant;
