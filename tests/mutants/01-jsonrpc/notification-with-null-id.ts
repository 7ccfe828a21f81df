import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a notification built with \"id\": null",
  why: "Any id key makes it a request (or, with null, an invalid one): the server answers a message nobody waits for, or refuses it.",
  section: 'three-shapes',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: `  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };`,
      replace: `  return (params === undefined ? { jsonrpc: '2.0', id: null, method } : { jsonrpc: '2.0', id: null, method, params }) as unknown as JsonRpcNotification; // MUTANT`,
    },
  ],
  caughtBy: [
    "encodeNotification has no id key at all",
    "Building the three shapes › for any id, method, params, result and error: builds the same messages as the reference",
  ],
} satisfies Mutant;
