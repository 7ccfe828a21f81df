import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage, JsonRpcRequest } from '../jsonrpc.ts';
import { META_CLIENT_CAPABILITIES, META_LOG_LEVEL, META_PROTOCOL_VERSION, META_SERVER_INFO, META_SUBSCRIPTION_ID } from './meta.ts';
import { ModernServer } from './modern-server.ts';
import { inputRequired, type EraTool } from './types.ts';

const SERVER_INFO = { name: 'test-server', version: '9.9.9' };
const meta = (extra: Record<string, unknown> = {}) => ({ [META_PROTOCOL_VERSION]: '2026-07-28', [META_CLIENT_CAPABILITIES]: {}, ...extra });
const request = (id: number, method: string, params: Record<string, unknown> = {}, metaExtra?: Record<string, unknown>): JsonRpcRequest => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: meta(metaExtra) },
});

const ASK: EraTool = {
  info: { name: 'ask', inputSchema: { type: 'object', properties: {} } },
  run: (_args, context) => {
    const answer = context.inputResponses?.who?.content as { name?: string } | undefined;
    if (context.requestState === 'asked' && typeof answer?.name === 'string') return `hi ${answer.name}`;
    return inputRequired({ who: { method: 'elicitation/create', params: { message: 'Who?', requestedSchema: { type: 'object', properties: {} } } } }, 'asked');
  },
};
const LOGGER: EraTool = {
  info: { name: 'logger', inputSchema: { type: 'object', properties: {} } },
  run: (_args, context) => {
    context.log('debug', 'quiet');
    context.log('error', 'loud');
    return 'done';
  },
};

function server() {
  return new ModernServer({ serverInfo: SERVER_INFO, tools: [ASK, LOGGER], listChanged: true, cache: { ttlMs: 1000, cacheScope: 'public' } });
}

describe('ModernServer: the per-request envelope', () => {
  it('refuses a request without _meta, or with a required field missing, with -32602 and HTTP 400', async () => {
    const bare = await server().handle({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    expect(bare.status).toBe(400);
    expect(bare.response).toMatchObject({ id: 1, error: { code: -32602 } });
    const noCapabilities = await server().handle({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { [META_PROTOCOL_VERSION]: '2026-07-28' } } });
    expect(noCapabilities.response).toMatchObject({ id: 2, error: { code: -32602 } });
  });

  it('answers an unsupported version with -32022, the supported list and the requested version', async () => {
    const answer = await server().handle(request(3, 'server/discover', {}, { [META_PROTOCOL_VERSION]: '1900-01-01' }));
    expect(answer.status).toBe(400);
    expect(answer.response).toMatchObject({ error: { code: -32022, data: { requested: '1900-01-01' } } });
    const data = (answer.response as { error: { data: { supported: string[] } } }).error.data;
    expect(data.supported[0]).toBe('2026-07-28');
  });

  it('serves server/discover with resultType, serverInfo in _meta and caching hints', async () => {
    const { response } = await server().handle(request(4, 'server/discover'));
    const result = (response as { result: Record<string, unknown> }).result;
    expect(result.resultType).toBe('complete');
    expect(result._meta).toEqual({ [META_SERVER_INFO]: SERVER_INFO });
    expect(result.supportedVersions).toContain('2026-07-28');
    expect(result.capabilities).toMatchObject({ tools: { listChanged: true }, logging: {} });
    expect(result).toMatchObject({ ttlMs: 1000, cacheScope: 'public' });
  });

  it('has no initialize, ping, logging/setLevel or resources/subscribe: -32601 with HTTP 404', async () => {
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'prompts/list']) {
      const answer = await server().handle(request(5, method));
      expect(answer, method).toMatchObject({ status: 404, response: { id: 5, error: { code: -32601 } } });
    }
  });
});

describe('ModernServer: MRTR', () => {
  it('asks with an InputRequiredResult, seals its state, and completes on the retry', async () => {
    const modern = server();
    const first = await modern.handle(request(10, 'tools/call', { name: 'ask' }, { [META_CLIENT_CAPABILITIES]: { elicitation: {} } }));
    const asked = (first.response as { result: Record<string, unknown> }).result;
    expect(asked.resultType).toBe('input_required');
    expect(asked.inputRequests).toMatchObject({ who: { method: 'elicitation/create' } });
    expect(asked.requestState).not.toBe('asked'); // sealed, not the tool's plain value
    const retry = await modern.handle(
      request(11, 'tools/call', { name: 'ask', inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } }, requestState: asked.requestState }, { [META_CLIENT_CAPABILITIES]: { elicitation: {} } }),
    );
    expect(retry.response).toMatchObject({ id: 11, result: { resultType: 'complete', content: [{ type: 'text', text: 'hi Ada' }] } });
  });

  it('refuses an edited requestState and malformed inputResponses with -32602', async () => {
    const modern = server();
    const first = await modern.handle(request(12, 'tools/call', { name: 'ask' }, { [META_CLIENT_CAPABILITIES]: { elicitation: {} } }));
    const state = String((first.response as { result: Record<string, unknown> }).result.requestState);
    const tampered = await modern.handle(request(13, 'tools/call', { name: 'ask', inputResponses: { who: { action: 'accept', content: { name: 'Eve' } } }, requestState: `${state}x` }, { [META_CLIENT_CAPABILITIES]: { elicitation: {} } }));
    expect(tampered.response).toMatchObject({ error: { code: -32602 } });
    const malformed = await modern.handle(request(14, 'tools/call', { name: 'ask', inputResponses: { who: 42 } }, { [META_CLIENT_CAPABILITIES]: { elicitation: {} } }));
    expect(malformed.response).toMatchObject({ error: { code: -32602 } });
  });

  it('answers -32021 naming the capability when the client did not declare elicitation', async () => {
    const answer = await server().handle(request(15, 'tools/call', { name: 'ask' }));
    expect(answer).toMatchObject({ status: 400, response: { error: { code: -32021, data: { requiredCapabilities: { elicitation: {} } } } } });
  });
});

describe('ModernServer: logging and subscriptions', () => {
  it('sends notifications/message only at or above the request _meta logLevel, and none without one', async () => {
    const sent: JsonRpcMessage[] = [];
    await server().handle(request(20, 'tools/call', { name: 'logger' }), { send: (message) => sent.push(message) });
    expect(sent).toEqual([]);
    await server().handle(request(21, 'tools/call', { name: 'logger' }, { [META_LOG_LEVEL]: 'warning' }), { send: (message) => sent.push(message) });
    expect(sent).toEqual([{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', data: 'loud' } }]);
  });

  it('acknowledges a listen first, stamps its id on every notification, honours the filter, ends on cancel', async () => {
    const modern = server();
    const sent: JsonRpcMessage[] = [];
    const controller = new AbortController();
    const listening = modern.handle(request(30, 'subscriptions/listen', { notifications: { toolsListChanged: true } }), { send: (message) => sent.push(message), signal: controller.signal });
    modern.notifyListChanged('prompts'); // not asked for
    modern.notifyListChanged('tools');
    controller.abort();
    expect(await listening).toEqual({ response: null, status: 200 });
    expect(sent.map((message) => ('method' in message ? message.method : ''))).toEqual(['notifications/subscriptions/acknowledged', 'notifications/tools/list_changed']);
    for (const message of sent) expect((message as { params: { _meta: Record<string, unknown> } }).params._meta[META_SUBSCRIPTION_ID]).toBe(30);
    modern.notifyListChanged('tools');
    expect(sent).toHaveLength(2); // the listener is gone
  });

  it('answers an open listen with its result when the server shuts down', async () => {
    const modern = server();
    const listening = modern.handle(request(31, 'subscriptions/listen', { notifications: {} }), { send: () => {}, signal: new AbortController().signal });
    await Promise.resolve();
    modern.endSubscriptions();
    expect(await listening).toMatchObject({ response: { id: 31, result: { resultType: 'complete', _meta: { [META_SUBSCRIPTION_ID]: 31 } } } });
  });
});
