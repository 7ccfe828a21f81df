import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'an unknown tool answered as isError data',
  why: 'A tools/call naming a tool that does not exist gets an isError result instead of the protocol error -32602 the specification asks for (official SDK 1.x does this; SDK 2.x and the specification use -32602).',
  section: 'error-layering',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: '    if (tool === undefined) return encodeError(id, ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);',
      replace: '    // BUG: a missing tool is reported as a tool failure, not as a protocol error.\n' +
        '    if (tool === undefined) return encodeResult(id, toolFailure(`Unknown tool: ${params.name}`));',
    },
  ],
  caughtBy: ['an unknown tool is a protocol error: -32602, and no result'],
} satisfies Mutant;
