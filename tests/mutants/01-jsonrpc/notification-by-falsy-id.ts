import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a notification recognised by a falsy id instead of a missing id',
  why: 'isNotification asks "is the id falsy?" instead of "is there an id key?": a request with id 0 is taken for a notification and never answered, and the SDK client\'s first request, initialize, has id 0.',
  section: 'classifiers',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: "  return 'method' in message && !('id' in message);",
      replace: "  return 'method' in message && !(message as JsonRpcRequest).id; // MUTANT: id 0 is falsy",
    },
  ],
  caughtBy: ['a request with id 0 is a request, not a notification, so it gets an answer'],
} satisfies Mutant;
