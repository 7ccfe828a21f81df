import { describe, expect, it } from 'vitest';
import { createEchoTools, ECHO_SERVER_INFO } from './echo-tools.ts';
import type { JsonRpcMessage } from './jsonrpc.ts';
import { McpServer } from './server.ts';
import { withToolProgress } from './tool-progress.ts';

function setup() {
  const mcp = new McpServer({ serverInfo: ECHO_SERVER_INFO, tools: createEchoTools(), requireInitialized: false });
  void mcp.handle({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  const sent: JsonRpcMessage[] = [];
  return { server: withToolProgress(mcp), sent, context: { send: (message: JsonRpcMessage) => void sent.push(message) } };
}

describe('withToolProgress', () => {
  it('reports started (0 of 1) and finished (1 of 1) with the call progress token', async () => {
    const { server, sent, context } = setup();
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: { progressToken: 'tok' } } };
    expect(await server.handle(call, context)).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'x' }] } });
    expect(sent.map((message) => ('params' in message ? message.params : undefined))).toEqual([
      { progressToken: 'tok', progress: 0, total: 1, message: 'started' },
      { progressToken: 'tok', progress: 1, total: 1, message: 'finished' },
    ]);
  });

  it('says nothing when no progress was asked for, or for other methods', async () => {
    const { server, sent, context } = setup();
    await server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } }, context);
    await server.handle({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { progressToken: 1 } } }, context);
    await server.handle({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: { progressToken: 1.5 } } }, context);
    expect(sent).toEqual([]);
  });
});
