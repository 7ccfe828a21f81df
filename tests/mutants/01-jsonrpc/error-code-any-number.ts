import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "an error code that is not an integer accepted",
  why: "\"code\": \"-32601\" or -32601.5 is not a JSON-RPC error code: a client switching on the code never matches.",
  section: 'parse-and-validate',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: `  if (!isPlainObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {`,
      replace: `  if (!isPlainObject(error) || error.code === undefined || typeof error.message !== 'string') { // MUTANT`,
    },
  ],
  caughtBy: [
    "an error without an integer code and a string message",
    "parseMessage accepts well-formed messages › for any message, valid or broken in one field: parseMessage and validateMessage decide as the reference does",
  ],
} satisfies Mutant;
