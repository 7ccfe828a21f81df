import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'invalid arguments answered as a JSON-RPC error',
  why: 'Arguments that break the inputSchema get -32602 instead of an isError result; since 2025-11-25 the specification wants a result the model can read, so it can fix the arguments and call again.',
  section: 'error-layering',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: "      return encodeResult(id, toolFailure(`Invalid arguments for tool ${tool.info.name}: ${problems.join('; ')}`));",
      replace: '      // BUG: the pre-2025-11-25 habit: a protocol error the model never sees.\n' +
        "      return encodeError(id, ErrorCode.InvalidParams, `Invalid arguments for tool ${tool.info.name}: ${problems.join('; ')}`);",
    },
  ],
  caughtBy: ['arguments that break the inputSchema are an isError result naming the problem, and the tool does not run'],
} satisfies Mutant;
