import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "\"jsonrpc\" not checked",
  why: "A message from JSON-RPC 1.0 (or anything with a method) is taken for 2.0; the lesson refuses it with -32600.",
  section: 'parse-and-validate',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: `  if (value.jsonrpc !== '2.0') return invalid('"jsonrpc" must be exactly "2.0"', readableId);`,
      replace: `  // MUTANT: jsonrpc is not checked`,
    },
  ],
  caughtBy: [
    "a missing or wrong \"jsonrpc\"",
    "parseMessage accepts well-formed messages › for any message, valid or broken in one field: parseMessage and validateMessage decide as the reference does",
  ],
} satisfies Mutant;
