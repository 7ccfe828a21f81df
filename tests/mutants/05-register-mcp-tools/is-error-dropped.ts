import type { Mutant } from '../mutant.ts';

export default {
  failureMode: 'losing isError when converting results to text',
  why: 'A failed tool\'s message reaches the model looking exactly like a successful answer ("Division by zero" as the result of a division), so the model cannot tell it has to recover. Failure is data only if it stays visible.',
  section: 'failure-is-data',
  file: 'src/protocol/mcp-result-to-text.ts',
  edits: [
    {
      find: '  return result?.isError === true ? TOOL_ERROR_PREFIX + body : body;',
      replace: '  return body; // MUTANT: isError dropped',
    },
  ],
  caughtBy: [
    'keeps isError visible: the text starts with "[tool error] "',
    // Through registerMcpTools, which uses mcpResultToText: the bug reaches every importer.
    'hands a failed tool (isError: true) to the model as readable text',
  ],
} satisfies Mutant;
