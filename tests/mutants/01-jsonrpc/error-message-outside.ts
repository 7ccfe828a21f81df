import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "the error's message put beside the error object",
  why: "JSON-RPC puts code and message inside \"error\"; a message outside it is lost, and the response is invalid.",
  section: 'three-shapes',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: `  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  return id === null ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };`,
      replace: `  const error = (data === undefined ? { code } : { code, data }) as JsonRpcErrorObject;
  return (id === null ? { jsonrpc: '2.0', error, message } : { jsonrpc: '2.0', id, error, message }) as JsonRpcFailure; // MUTANT`,
    },
  ],
  caughtBy: [
    "encodeResult and encodeError build the two kinds of response",
    "Building the three shapes › for any id, method, params, result and error: builds the same messages as the reference",
  ],
} satisfies Mutant;
