import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'an unreadable id answered as "id": null',
  why: 'JSON-RPC writes "id": null when the id cannot be read, but MCP\'s request ids are strings or integers: a schema-checking client (or SDK) refuses the error itself, and the sender never learns why its message failed.',
  section: 'ids-and-methods',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: '    if (!outcome.ok) return encodeError(outcome.id, ErrorCode.InvalidRequest, `Invalid request: ${outcome.reason}`);',
      replace:
        "    if (!outcome.ok) return { jsonrpc: '2.0', id: outcome.id, error: { code: ErrorCode.InvalidRequest, message: `Invalid request: ${outcome.reason}` } } as unknown as JsonRpcResponse; // MUTANT: \"id\": null",
    },
  ],
  caughtBy: ['an invalid message gets -32600: with its id when one can be read, with no id member when not (never "id": null)'],
} satisfies Mutant;
