import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "a tool result with isError: true turned into a rejection",
  why: "A tool that ran and failed is a result the model should read and recover from; rejecting makes it look like a broken connection.",
  section: 'handshake',
  file: 'src/protocol/client.ts',
  edits: [
    {
      find: `    const raw = await this.request('tools/call', { name, arguments: args ?? {} }, timeoutMs, true);
    return expectShape('tools/call', raw, checkCallToolResult);`,
      replace: `    const raw = await this.request('tools/call', { name, arguments: args ?? {} }, timeoutMs, true);
    const result = expectShape('tools/call', raw, checkCallToolResult);
    if (result.isError) throw new Error('the tool failed'); // MUTANT: failure as an exception
    return result;`,
    },
  ],
  caughtBy: [
    "a tool that failed (isError: true) is still a result: callTool() resolves with it",
  ],
} satisfies Mutant;
