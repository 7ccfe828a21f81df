import { describe, expect, it } from 'vitest';
import { createEchoTools, ECHO_SERVER_INFO } from '../echo-tools.ts';
import type { JsonRpcRequest } from '../jsonrpc.ts';
import { McpServer } from '../server.ts';
import { DualEraServer, claimsModernEra } from './dual-era-server.ts';
import { createEchoModernServer } from './echo.ts';
import { ModernServer } from './modern-server.ts';
import type { EraTool } from './types.ts';
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from './meta.ts';

const modernMeta = { [META_PROTOCOL_VERSION]: '2026-07-28', [META_CLIENT_CAPABILITIES]: {} };

function dualEra() {
  const routes: string[] = [];
  const options = { serverInfo: ECHO_SERVER_INFO, tools: createEchoTools() };
  const server = new DualEraServer({
    modern: createEchoModernServer(options),
    createLegacy: () => new McpServer(options),
    onRoute: (era, request) => routes.push(`${era} ${request.method}`),
  });
  return { server, routes, reference: new McpServer(options) };
}

describe('DualEraServer', () => {
  it('answers a handshake-era client exactly as the reference server does', async () => {
    const { server, reference } = dualEra();
    const script: unknown[] = [
      { jsonrpc: '2.0', id: 0, method: 'tools/list' }, // before initialize: the reference's -32600
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
    ];
    for (const message of script) expect(await server.handle(message)).toEqual(await reference.handle(message));
    expect(server.legacyOpen).toBe(true);
  });

  it('serves a request with a modern claim statelessly, also after a handshake on the same connection', async () => {
    const { server, routes } = dualEra();
    const discover = await server.handle({ jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: modernMeta } });
    expect(discover).toMatchObject({ id: 'd', result: { resultType: 'complete', supportedVersions: expect.arrayContaining(['2026-07-28', '2025-11-25']) } });
    await server.handle({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
    const modernCall = await server.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: modernMeta } });
    expect(modernCall).toMatchObject({ result: { resultType: 'complete', content: [{ type: 'text', text: 'x' }] } });
    expect(routes).toEqual(['modern server/discover', 'legacy initialize', 'modern tools/call']);
  });

  it('treats initialize with a valid modern envelope as an unknown method, and a legacy version claim as -32022', async () => {
    const { server } = dualEra();
    expect(await server.handle({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { _meta: modernMeta } })).toMatchObject({ error: { code: -32601 } });
    expect(await server.handle({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { ...modernMeta, [META_PROTOCOL_VERSION]: '2025-11-25' } } })).toMatchObject({
      error: { code: -32022, data: { requested: '2025-11-25' } },
    });
    expect(server.legacyOpen).toBe(false);
  });

  it('cancels a modern request on notifications/cancelled: no response, and nothing more sent for it', async () => {
    // A tool that keeps talking after the cancel, as a careless one would.
    const stubborn: EraTool = {
      info: { name: 'stubborn', inputSchema: { type: 'object', properties: {} } },
      run: (_args, context) =>
        new Promise((resolve) => {
          context.progress(0, 1, 'started');
          context.signal.addEventListener('abort', () => (context.progress(1, 1, 'after the cancel'), resolve('done anyway')));
        }),
    };
    const server = new DualEraServer({ modern: new ModernServer({ serverInfo: ECHO_SERVER_INFO, tools: [stubborn] }), createLegacy: () => new McpServer({ serverInfo: ECHO_SERVER_INFO, tools: [] }) });
    const sent: string[] = [];
    const call: JsonRpcRequest = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'stubborn', _meta: { ...modernMeta, progressToken: 't' } } };
    const pending = server.handle(call, { send: (message) => sent.push('method' in message ? String((message.params as { message?: string }).message) : 'response') });
    await new Promise((resolve) => setTimeout(resolve, 0)); // let the tool start (a yield, not a wait for time)
    expect(sent).toEqual(['started']);
    await server.handle({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } });
    expect(await pending).toBeNull();
    expect(sent).toEqual(['started']);
  });

  it('recognises a modern claim only by _meta protocolVersion', () => {
    expect(claimsModernEra({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { progressToken: 1 } } })).toBe(false);
    expect(claimsModernEra({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta } })).toBe(true);
    expect(claimsModernEra({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', _meta: { [META_PROTOCOL_VERSION]: '2025-11-25' } } })).toBe(false);
  });

  it('modern-only: refuses initialize with -32022 naming only the modern versions, and serves modern requests', async () => {
    const options = { serverInfo: ECHO_SERVER_INFO, tools: createEchoTools() };
    const server = new DualEraServer({ modern: createEchoModernServer({ ...options, supportedVersions: ['2026-07-28'] }) });
    const init = await server.handle({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
    expect(init).toMatchObject({ id: 1, error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2025-11-25' } } });
    expect(await server.handle({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeNull();
    expect(await server.handle({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: modernMeta } })).toMatchObject({ result: { resultType: 'complete' } });
  });

  // An invalid message is invalid in every era: JSON-RPC's -32600 (with the id when one can be
  // read, id-less otherwise), never silence, which leaves a client waiting for ever.
  it('modern-only: answers an invalid message exactly as the handshake-era server does', async () => {
    const options = { serverInfo: ECHO_SERVER_INFO, tools: createEchoTools() };
    const server = new DualEraServer({ modern: createEchoModernServer({ ...options, supportedVersions: ['2026-07-28'] }) });
    const reference = new McpServer(options);
    const invalid: unknown[] = [
      { jsonrpc: '2.0' },
      { foo: 1 },
      { jsonrpc: '1.0', id: 7, method: 'ping' },
      { jsonrpc: '2.0', id: 4, method: 5 },
      { jsonrpc: '2.0', method: 5, params: { _meta: modernMeta } },
      [],
      'text',
    ];
    for (const message of invalid) {
      const answer = await server.handle(message);
      expect(answer).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
      expect(answer).toEqual(await reference.handle(message));
    }
  });
});
