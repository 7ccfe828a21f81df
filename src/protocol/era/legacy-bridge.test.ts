import { describe, expect, it } from 'vitest';
import { FeatureServer } from '../features/feature-server.ts';
import type { JsonRpcMessage, JsonRpcRequest } from '../jsonrpc.ts';
import { legacyTool } from './legacy-bridge.ts';
import { inputRequired, type EraTool } from './types.ts';

const GREET: EraTool = {
  info: { name: 'greet', inputSchema: { type: 'object', properties: {} } },
  run: (_args, context) => {
    const content = context.inputResponses?.who?.content as { name?: string } | undefined;
    if (context.requestState === 'asked' && typeof content?.name === 'string') return `Hello, ${content.name}!`;
    return inputRequired({ who: { method: 'elicitation/create', params: { message: 'Who?', requestedSchema: { type: 'object', properties: {} } } } }, 'asked');
  },
};

async function session(capabilities: Record<string, unknown>) {
  const server = new FeatureServer({ serverInfo: { name: 's', version: '1' }, tools: [legacyTool(GREET)] });
  await server.handle({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'c', version: '1' } } });
  await server.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return server;
}

describe('an era tool in a handshake-era session', () => {
  it('turns the InputRequiredResult into a real elicitation/create request and runs again with the answer', async () => {
    const server = await session({ elicitation: {} });
    const sent: JsonRpcMessage[] = [];
    const call = server.handle({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet' } }, { send: (message) => sent.push(message) });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const asked = sent[0] as JsonRpcRequest;
    expect(asked).toMatchObject({ method: 'elicitation/create', params: { message: 'Who?' } });
    await server.handle({ jsonrpc: '2.0', id: asked.id, result: { action: 'accept', content: { name: 'Ada' } } });
    expect(await call).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'Hello, Ada!' }] } });
  });

  it('fails as a tool error when initialize did not declare the capability', async () => {
    const server = await session({});
    const sent: JsonRpcMessage[] = [];
    const answer = await server.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet' } }, { send: (message) => sent.push(message) });
    expect(sent).toEqual([]);
    expect(answer).toMatchObject({ result: { isError: true } });
  });
});
