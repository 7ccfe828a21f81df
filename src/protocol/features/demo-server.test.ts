// The feature demo over Streamable HTTP without a socket: the page's own client (McpClient on
// HttpClientTransport) against the handler, so each feature is checked the way the panel uses it.

import { describe, expect, it } from 'vitest';
import { McpClient, ServerRequestRefused, type ClientEvent } from '../client.ts';
import { HttpClientTransport } from '../http/client-transport.ts';
import { inProcessExchange } from '../http/in-process.ts';
import { createHttpHandler } from '../http/server-handler.ts';
import type { JsonRpcNotification } from '../jsonrpc.ts';
import { ABOUT_URI, COUNTER_URI, createDemoWorld, DEMO_LOG_LEVELS } from './demo-server.ts';

type Sampler = (params: unknown) => Promise<unknown>;

async function session(handler: ReturnType<typeof createHttpHandler>, sample?: Sampler) {
  const transport = new HttpClientTransport({ url: 'http://127.0.0.1/mcp', exchange: inProcessExchange(handler), sleep: async () => {} });
  const client = new McpClient(transport, {
    framing: 'ndjson',
    requestTimeoutMs: 5000,
    ...(sample === undefined ? {} : { capabilities: { sampling: {} }, serverRequests: { 'sampling/createMessage': sample } }),
  });
  const notifications: JsonRpcNotification[] = [];
  client.on((event: ClientEvent) => {
    if (event.type === 'notification') notifications.push(event.message);
  });
  await client.connect();
  const call = (name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) =>
    client.sendRequest('tools/call', { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) }) as Promise<{ content: { text: string }[]; isError?: boolean }>;
  return { client, transport, notifications, call };
}

async function until(check: () => boolean): Promise<void> {
  for (let turn = 0; turn < 200 && !check(); turn++) await new Promise((resolve) => setTimeout(resolve, 0));
  expect(check()).toBe(true);
}

function setup() {
  const world = createDemoWorld({ stepMs: 0 });
  const handler = createHttpHandler({ createServer: (channel) => world.createServer(channel) });
  return { world, handler };
}

describe('the feature demo server', () => {
  it('declares resources (with subscribe), prompts and logging; lists and reads its resources', async () => {
    const { handler } = setup();
    const { client } = await session(handler);
    expect(client.negotiatedVersion).toBe('2025-11-25');
    const listed = (await client.sendRequest('resources/list')) as { resources: { uri: string }[] };
    expect(listed.resources.map((resource) => resource.uri)).toEqual([COUNTER_URI, ABOUT_URI]);
    expect(await client.sendRequest('resources/read', { uri: COUNTER_URI })).toEqual({ contents: [{ uri: COUNTER_URI, mimeType: 'text/plain', text: 'count: 0' }] });
  });

  it('sends notifications/resources/updated on the GET stream of every subscribed session, and only those', async () => {
    const { world, handler } = setup();
    const watcher = await session(handler);
    const other = await session(handler);
    await watcher.client.sendRequest('resources/subscribe', { uri: COUNTER_URI });
    // The change is made in the other session: the counter is the server's, not a session's.
    expect((await other.call('increment')).content[0]!.text).toBe('count is now 1');
    await until(() => watcher.notifications.some((message) => message.method === 'notifications/resources/updated'));
    expect(watcher.notifications).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: COUNTER_URI } }]);
    expect(other.notifications).toEqual([]);
    expect(world.counter).toBe(1);
    expect(await watcher.client.sendRequest('resources/read', { uri: COUNTER_URI })).toMatchObject({ contents: [{ text: 'count: 1' }] });
    await watcher.client.sendRequest('resources/unsubscribe', { uri: COUNTER_URI });
    await other.call('increment');
    await other.call('increment');
    expect(watcher.notifications).toHaveLength(1);
  });

  it('fills the explain prompt from its arguments and refuses it without the required one', async () => {
    const { handler } = setup();
    const { client } = await session(handler);
    const listed = (await client.sendRequest('prompts/list')) as { prompts: { name: string; arguments: { name: string; required?: boolean }[] }[] };
    expect(listed.prompts[0]).toMatchObject({ name: 'explain', arguments: [{ name: 'topic', required: true }, { name: 'audience' }] });
    expect(await client.sendRequest('prompts/get', { name: 'explain', arguments: { topic: 'sampling', audience: 'a workshop' } })).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'Explain sampling to a workshop in three sentences.' } }],
    });
    await expect(client.sendRequest('prompts/get', { name: 'explain', arguments: {} })).rejects.toMatchObject({ code: -32602, rpcMessage: expect.stringContaining('topic') });
  });

  it('logs at every level until logging/setLevel, then only at that level and above', async () => {
    const { handler } = setup();
    const { client, notifications, call } = await session(handler);
    const levels = () => notifications.filter((message) => message.method === 'notifications/message').map((message) => (message.params as { level: string }).level);
    await call('log_levels');
    expect(levels()).toEqual([...DEMO_LOG_LEVELS]);
    notifications.length = 0;
    await client.sendRequest('logging/setLevel', { level: 'warning' });
    await call('log_levels');
    expect(levels()).toEqual(['warning', 'error']);
    await expect(client.sendRequest('logging/setLevel', { level: 'loud' })).rejects.toMatchObject({ code: -32602 });
  });

  it('reports progress for each step of slow_count, in order, before the result', async () => {
    const { handler } = setup();
    const { notifications, call } = await session(handler);
    const result = await call('slow_count', { steps: 3 }, { progressToken: 'bar' });
    expect(result.content[0]!.text).toBe('counted to 3');
    expect(notifications.map((message) => message.params)).toEqual([
      { progressToken: 'bar', progress: 1, total: 3, message: 'step 1 of 3' },
      { progressToken: 'bar', progress: 2, total: 3, message: 'step 2 of 3' },
      { progressToken: 'bar', progress: 3, total: 3, message: 'step 3 of 3' },
    ]);
  });

  it('asks the client for sampling: an answer becomes the result, a refusal (-1) a tool error', async () => {
    const { handler } = setup();
    const asked: unknown[] = [];
    let refuse = false;
    const { call } = await session(handler, async (params) => {
      asked.push(params);
      if (refuse) throw new ServerRequestRefused(-1, 'User rejected sampling request');
      return { role: 'assistant', content: { type: 'text', text: 'Paris.' }, model: 'scripted-model', stopReason: 'endTurn' };
    });
    expect(await call('ask_model', { question: 'Capital of France?' })).toEqual({ content: [{ type: 'text', text: 'scripted-model answered: Paris.' }] });
    expect(asked[0]).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }], maxTokens: 100 });
    refuse = true;
    const refused = await call('ask_model', { question: 'again?' });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/-1: User rejected sampling request/);
  });

  it('does not ask a client that did not declare sampling', async () => {
    const { handler } = setup();
    const { call, notifications } = await session(handler);
    const result = await call('ask_model', { question: 'hi' });
    expect(result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('sampling capability') }] });
    expect(notifications).toEqual([]);
  });
});
