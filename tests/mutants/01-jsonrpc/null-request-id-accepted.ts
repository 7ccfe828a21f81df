import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a request with a null id let through',
  why: 'JSON-RPC 2.0 discourages `"id": null` on a request and MCP forbids it: null is the id of an error about a request whose id could not be read, so an answer to such a request could never be paired with it.',
  section: 'parse-and-validate',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: "    if (hasId && !isValidId(value.id)) return invalid('a request id must be a string or an integer, never null');",
      replace: '    // MUTANT: the request id is never checked, so null (or 1.5, or {}) passes',
    },
  ],
  caughtBy: [
    'a request whose id is null',
    'validateMessage checks a value that is already parsed, as the frame reader hands it out',
  ],
} satisfies Mutant;
