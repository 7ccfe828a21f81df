import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'a failing tool answered as a JSON-RPC error',
  why: 'The try/catch wraps the dispatch instead of the tool: a tool that throws becomes a -32603 error response, so the model never reads what went wrong and cannot recover (the chapter\'s "errors not layered" trap).',
  section: 'error-layering',
  file: 'src/protocol/server.ts',
  edits: [
    {
      find: `      const result = await runTool(tool, args, controller.signal);
      // A cancelled request gets no response at all: the client has already stopped waiting.`,
      replace: `      // BUG: the tool runs bare; its failure is caught out here and becomes a protocol error.
      const output = await tool.run(args, controller.signal);
      const result: CallToolResult = typeof output === 'string' ? { content: [{ type: 'text', text: output }] } : output;`,
    },
    {
      find: '      return controller.signal.aborted ? null : encodeResult(id, result);',
      replace: `      return controller.signal.aborted ? null : encodeResult(id, result);
    } catch (error) {
      return encodeError(id, ErrorCode.InternalError, error instanceof Error ? error.message : String(error));`,
    },
  ],
  caughtBy: [
    'a tool that throws is a normal result with isError: true that carries the message',
    'a tool whose promise rejects is an isError result too',
  ],
} satisfies Mutant;
