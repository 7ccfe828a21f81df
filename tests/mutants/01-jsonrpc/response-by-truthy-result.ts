import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a response recognised by a truthy result',
  why: 'isResponse asks "is there a truthy result?": a success whose result is null, 0 or false (all legal) is not taken for a response, so its request is never resolved.',
  section: 'classifiers',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: "  return !('method' in message) && ('result' in message || 'error' in message);",
      replace: "  return !('method' in message) && (Boolean((message as JsonRpcSuccess).result) || 'error' in message); // MUTANT: truthiness",
    },
  ],
  caughtBy: ['a response whose result is null, 0 or false is still a response'],
} satisfies Mutant;
