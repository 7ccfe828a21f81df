import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'ids compared with loose equality',
  why: 'responseTo compares ids with `==`, so "1" answers the request with id 1. They are different ids: a client that numbers its requests while something else uses string ids resolves the wrong pending request.',
  section: 'ids',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: '  return response.id !== null && response.id !== undefined && idKey(response.id) === idKey(request.id);',
      replace: "  return response.id !== null && response.id !== undefined && response.id == request.id; // MUTANT: loose equality ignores the id's type",
    },
  ],
  caughtBy: ['id 1 and id "1" are different ids'],
} satisfies Mutant;
