import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a request without params sent with \"params\": null",
  why: "null is neither an object nor an array: strict peers refuse the request, and the lesson leaves params out when there are none.",
  section: 'three-shapes',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: `  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };`,
      replace: `  return { jsonrpc: '2.0', id, method, params: params ?? null } as JsonRpcRequest; // MUTANT`,
    },
  ],
  caughtBy: [
    "encodeRequest builds { jsonrpc, id, method, params }, leaving params out when there are none",
    "Building the three shapes › for any id, method, params, result and error: builds the same messages as the reference",
  ],
} satisfies Mutant;
