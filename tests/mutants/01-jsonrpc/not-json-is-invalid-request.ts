import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'the two "your message is broken" codes mixed up: parse error reported as invalid request',
  why: 'Text that is not JSON at all is answered with -32600 (invalid request) instead of -32700 (parse error).',
  section: 'error-codes',
  file: 'src/protocol/jsonrpc.ts',
  edits: [
    {
      find: '    return { ok: false, code: ErrorCode.ParseError, reason: `not JSON: ${(error as Error).message}`, id: null };',
      replace: '    return { ok: false, code: ErrorCode.InvalidRequest, reason: `not JSON: ${(error as Error).message}`, id: null }; // MUTANT: should be ParseError',
    },
  ],
  caughtBy: ['text that is not JSON is a parse error: -32700, with a null id'],
} satisfies Mutant;
