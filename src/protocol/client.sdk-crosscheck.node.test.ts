// Cross-check: our client and registry bridge against the official SDK's server (in-process), so
// the shapes we accept are the shapes a real MCP server sends.

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpClient } from './client.ts';
import { getFraming } from './framing/index.ts';
import { FRAMING_NAMES, type FramingName } from './framing/types.ts';
import type { ByteTransport } from './transport.ts';
import { ToolRegistry } from './registry.ts';
import { registerMcpTools, riskFromAnnotations } from './register-mcp-tools.ts';

/** Turn the SDK's message-level in-memory transport into the byte pipe our client expects. */
function byteBridge(framing: FramingName, memory: InMemoryTransport): ByteTransport {
  const { encode, createReader } = getFraming(framing);
  const reader = createReader();
  const dataListeners = new Set<(chunk: Uint8Array) => void>();
  const closeListeners = new Set<(reason: string) => void>();
  memory.onmessage = (message) => dataListeners.forEach((listener) => listener(encode(message)));
  memory.onclose = () => closeListeners.forEach((listener) => listener('in-memory transport closed'));
  return {
    write(bytes) {
      for (const item of reader.push(bytes)) {
        if (item.type !== 'message') throw new Error(`unreadable frame from our client: ${item.detail}`);
        void memory.send(item.value as never);
      }
    },
    end() {
      void memory.close();
    },
    onData(listener) {
      dataListeners.add(listener);
      return () => void dataListeners.delete(listener);
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => void closeListeners.delete(listener);
    },
  };
}

async function startSdkServer(framing: FramingName) {
  const server = new McpServer({ name: 'sdk-echo', version: '1.0.0' }, { instructions: 'Try echo.' });
  server.registerTool(
    'echo',
    { description: 'Echo the given text back verbatim.', inputSchema: { text: z.string().describe('Text to echo.') }, annotations: { readOnlyHint: true } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool('fail', { description: 'Always fails.', inputSchema: {} }, async () => {
    throw new Error('deliberate failure');
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const transport = byteBridge(framing, clientSide);
  await clientSide.start();
  const client = new McpClient(transport, { framing, clientInfo: { name: 'crosscheck', version: '1' } });
  return { server, client };
}

describe.each(FRAMING_NAMES)('McpClient against the official SDK server (%s frames)', (framing) => {
  it('completes the handshake and negotiates the latest version', async () => {
    const { client } = await startSdkServer(framing);
    const result = await client.connect();
    expect(client.state).toBe('ready');
    expect(client.serverInfo).toEqual({ name: 'sdk-echo', version: '1.0.0' });
    expect(client.negotiatedVersion).toBe(result.protocolVersion);
    expect(client.instructions).toBe('Try echo.');
    client.close();
  });

  it('lists and calls tools; a failing tool comes back as an isError result', async () => {
    const { client } = await startSdkServer(framing);
    await client.connect();
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'fail']);
    expect(await client.callTool('echo', { text: '你好 MCP' })).toMatchObject({ content: [{ type: 'text', text: '你好 MCP' }] });
    expect(await client.callTool('fail', {})).toMatchObject({ isError: true });
    await client.ping();
    client.close();
  });

  it('answers the server’s ping', async () => {
    const { client, server } = await startSdkServer(framing);
    await client.connect();
    await expect(server.server.ping()).resolves.toEqual({});
    client.close();
  });

  it('bridges the SDK server’s tools into the registry', async () => {
    const { client } = await startSdkServer(framing);
    await client.connect();
    const registry = new ToolRegistry();
    expect(await registerMcpTools(registry, client, { prefix: 'mcp__sdk__', server: 'sdk', risk: riskFromAnnotations })).toBe(2);
    expect(registry.get('mcp__sdk__echo')).toMatchObject({
      risk: 'auto',
      parameters: [{ name: 'text', type: 'string', required: true, description: 'Text to echo.' }],
    });
    expect(registry.get('mcp__sdk__fail')?.risk).toBe('approve');
    expect(await registry.execute('mcp__sdk__echo', { text: 'hello from MCP' })).toEqual({ ok: true, text: 'hello from MCP' });
    const failed = await registry.execute('mcp__sdk__fail', {});
    expect(failed.text).toMatch(/^\[tool error\] .*deliberate failure/);
    // Invalid arguments: the SDK answers with an isError result (or, in other versions, -32602); either way the model reads text.
    const invalid = await registry.execute('mcp__sdk__echo', { text: 42 });
    expect(invalid.text).toMatch(/error/i);
    client.close();
  });
});
