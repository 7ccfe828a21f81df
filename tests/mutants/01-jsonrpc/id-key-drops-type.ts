import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'an id key that forgets the type of the id',
  why: 'idKey is String(id), so 1 and "1" share a key: a response carrying one resolves the pending request that was sent with the other.',
  section: 'ids',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: '  return `${typeof id}:${id}`;',
      replace: '  return String(id); // MUTANT: the type of the id is lost',
    },
  ],
  caughtBy: [
    'idKey gives one key per id and keeps the type apart',
    'id 1 and id "1" are different ids',
  ],
} satisfies Mutant;
