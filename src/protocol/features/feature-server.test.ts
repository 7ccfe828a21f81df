import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '../jsonrpc.ts';
import { createConformanceServer } from './conformance-fixtures.ts';
import { FeatureServer, RESOURCE_NOT_FOUND } from './feature-server.ts';
import { matchUriTemplate } from './uri-template.ts';

const initialize = (capabilities: Record<string, unknown> = { sampling: {}, elicitation: {} }) => ({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 't', version: '1' } },
});

async function ready(capabilities?: Record<string, unknown>) {
  const channel: JsonRpcMessage[] = [];
  const server = createConformanceServer({ send: (message) => void channel.push(message) });
  const init = await server.handle(initialize(capabilities));
  await server.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const sent: JsonRpcMessage[] = [];
  const context = { send: (message: JsonRpcMessage) => void sent.push(message) };
  let next = 1;
  const call = (method: string, params?: unknown) => server.handle({ jsonrpc: '2.0', id: next++, method, ...(params === undefined ? {} : { params }) }, context);
  return { server, init, call, sent, channel };
}

describe('FeatureServer', () => {
  it('declares a capability for each feature it has, and gates everything before initialize', async () => {
    const { init } = await ready();
    expect(init).toMatchObject({ result: { capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, logging: {}, completions: {} } } });
    const bare = new FeatureServer({ serverInfo: { name: 'x', version: '1' }, logging: false });
    expect(bare.capabilities).toEqual({ tools: { listChanged: false } });
    expect(await bare.handle({ jsonrpc: '2.0', id: 1, method: 'resources/list' })).toMatchObject({ error: { code: -32600 } });
  });

  it('lists tools with their schemas exactly as registered (JSON Schema 2020-12 kept)', async () => {
    const { call } = await ready();
    const listed = (await call('tools/list')) as { result: { tools: { name: string; inputSchema: Record<string, unknown> }[] } };
    const schema = listed.result.tools.find((tool) => tool.name === 'json_schema_2020_12_tool')!.inputSchema;
    expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', $defs: { address: {} }, additionalProperties: false });
  });

  it('reads resources, fills templates, and answers an unknown URI with -32002', async () => {
    const { call } = await ready();
    expect(await call('resources/list')).toMatchObject({ result: { resources: [{ uri: 'test://static-text', name: 'Static text' }, {}, {}] } });
    expect(await call('resources/read', { uri: 'test://static-binary' })).toMatchObject({ result: { contents: [{ mimeType: 'image/png', blob: expect.any(String) }] } });
    expect(await call('resources/read', { uri: 'test://template/123/data' })).toMatchObject({
      result: { contents: [{ uri: 'test://template/123/data', text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}' }] },
    });
    expect(await call('resources/read', { uri: 'test://nothing' })).toMatchObject({ error: { code: RESOURCE_NOT_FOUND, data: { uri: 'test://nothing' } } });
    expect(await call('resources/templates/list')).toMatchObject({ result: { resourceTemplates: [{ uriTemplate: 'test://template/{id}/data' }] } });
  });

  it('sends resource updates only for subscribed URIs, on its own channel', async () => {
    const { server, call, channel } = await ready();
    server.resourceUpdated('test://watched-resource');
    expect(await call('resources/subscribe', { uri: 'test://watched-resource' })).toMatchObject({ result: {} });
    server.resourceUpdated('test://watched-resource');
    expect(await call('resources/unsubscribe', { uri: 'test://watched-resource' })).toMatchObject({ result: {} });
    server.resourceUpdated('test://watched-resource');
    expect(channel).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://watched-resource' } }]);
  });

  it('gets prompts with their arguments, and refuses a missing required one with -32602', async () => {
    const { call } = await ready();
    expect(await call('prompts/get', { name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } })).toMatchObject({
      result: { messages: [{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" } }] },
    });
    expect(await call('prompts/get', { name: 'test_prompt_with_arguments', arguments: { arg1: 'a' } })).toMatchObject({ error: { code: -32602, message: expect.stringContaining('arg2') } });
    expect(await call('prompts/get', { name: 'nope' })).toMatchObject({ error: { code: -32602 } });
  });

  it('filters tool log messages by the level the client set', async () => {
    const { call, sent } = await ready();
    expect(await call('logging/setLevel', { level: 'warning' })).toMatchObject({ result: {} });
    await call('tools/call', { name: 'test_tool_with_logging', arguments: {} });
    expect(sent).toEqual([]);
    await call('logging/setLevel', { level: 'info' });
    await call('tools/call', { name: 'test_tool_with_logging', arguments: {} });
    expect(sent.map((message) => ('params' in message ? (message.params as { data: unknown }).data : undefined))).toEqual([
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
    ]);
    expect(await call('logging/setLevel', { level: 'loud' })).toMatchObject({ error: { code: -32602 } });
  });

  it('reports progress with the call token, increasing', async () => {
    const { call, sent } = await ready();
    await call('tools/call', { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 'p' } });
    expect(sent.map((message) => ('params' in message ? message.params : undefined))).toEqual([
      { progressToken: 'p', progress: 0, total: 100 },
      { progressToken: 'p', progress: 50, total: 100 },
      { progressToken: 'p', progress: 100, total: 100 },
    ]);
  });

  it('asks the client for sampling and pairs the answer by id', async () => {
    const { server, call, sent } = await ready();
    const result = call('tools/call', { name: 'test_sampling', arguments: { prompt: 'hi' } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const [request] = sent as { id: number; method: string; params: unknown }[];
    expect(request).toMatchObject({ method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 100 } });
    // The client's answer arrives as its own message (over HTTP: a POST of its own).
    expect(await server.handle({ jsonrpc: '2.0', id: request!.id, result: { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' } })).toBeNull();
    expect(await result).toMatchObject({ result: { content: [{ type: 'text', text: 'LLM response: hello' }] } });
  });

  it('turns a client error or a missing capability into a tool error result', async () => {
    const noSampling = await ready({});
    expect(await noSampling.call('tools/call', { name: 'test_sampling', arguments: { prompt: 'x' } })).toMatchObject({ result: { isError: true } });
    const { server, call, sent } = await ready();
    const result = call('tools/call', { name: 'test_elicitation', arguments: { message: 'who?' } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    await server.handle({ jsonrpc: '2.0', id: (sent[0] as { id: number }).id, error: { code: -1, message: 'user went away' } });
    expect(await result).toMatchObject({ result: { isError: true, content: [{ text: expect.stringContaining('user went away') }] } });
  });

  it('completes prompt arguments', async () => {
    const { call } = await ready();
    expect(await call('completion/complete', { ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'par' } })).toMatchObject({
      result: { completion: { values: ['paris', 'park', 'party'], total: 3, hasMore: false } },
    });
    expect(await call('completion/complete', { ref: {} })).toMatchObject({ error: { code: -32602 } });
  });
});

describe('matchUriTemplate', () => {
  it('matches {name} within one path segment and decodes it', () => {
    expect(matchUriTemplate('test://template/{id}/data', 'test://template/12%203/data')).toEqual({ id: '12 3' });
    expect(matchUriTemplate('test://template/{id}/data', 'test://template/1/2/data')).toBeNull();
    expect(matchUriTemplate('a.b/{x}', 'aXb/1')).toBeNull();
  });
});
