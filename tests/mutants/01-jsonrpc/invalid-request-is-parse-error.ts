import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'the two "your message is broken" codes mixed up: invalid request reported as parse error',
  why: 'Valid JSON that is not a valid JSON-RPC message is answered with -32700 (parse error) instead of -32600 (invalid request), so the sender is told its JSON is broken when its message shape is.',
  section: 'error-codes',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: '    code: ErrorCode.InvalidRequest,',
      replace: '    code: ErrorCode.ParseError, // MUTANT: should be InvalidRequest',
    },
  ],
  caughtBy: [
    'JSON that is not a valid message is an invalid request: -32600, not -32700',
    'a response carrying both result and error',
    'a batch (a JSON array): MCP does not use batching',
  ],
} satisfies Mutant;
