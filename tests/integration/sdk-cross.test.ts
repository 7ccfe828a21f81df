// Cross-checks against code nobody here wrote: the OFFICIAL TypeScript SDK's client against our
// echo server, and our McpClient against a server built with the official SDK. Both speak NDJSON,
// the framing the MCP specification and the SDK use on stdio.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/protocol/client.ts';
import { builtProgram, ChildTransport, killAllPrograms, startNode } from './child-transport.ts';

const GREETING = '你好，世界 👋 こんにちは';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the official SDK client against our echo server', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  async function connectSdkClient() {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [builtProgram('echo-server'), '--framing=ndjson'],
      stderr: 'pipe',
    });
    const stderr: Buffer[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    const client = new Client({ name: 'sdk-cross-test', version: '1.0.0' });
    cleanup = () => client.close();
    await client.connect(transport);
    return { client, transport, stderr };
  }

  it('connects, lists our tools and calls echo with CJK text', async () => {
    const { client, transport, stderr } = await connectSdkClient();
    expect(client.getServerVersion()?.name).toBe('mcp-echo-server');
    expect(client.getServerCapabilities()?.tools).toBeDefined();

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['add', 'delay_echo', 'delete_file', 'echo', 'fail']);
    expect(tools.find((tool) => tool.name === 'delete_file')?.annotations?.destructiveHint).toBe(true);

    const result = await client.callTool({ name: 'echo', arguments: { text: GREETING } });
    expect(result.content).toEqual([{ type: 'text', text: GREETING }]);

    const failed = await client.callTool({ name: 'fail', arguments: { message: 'on purpose' } });
    expect(failed.isError).toBe(true);

    const pid = transport.pid!;
    await client.close();
    expect(isRunning(pid)).toBe(false);
    // Our server saw the SDK's handshake, including the notification the chapter's gate waits for.
    const log = Buffer.concat(stderr).toString('utf8');
    expect(log).toContain('notifications/initialized');
    expect(log).toContain('tools/call');
  });

  it('surfaces our -32602 for an unknown tool as an error', async () => {
    const { client } = await connectSdkClient();
    const call = client.callTool({ name: 'no_such_tool', arguments: {} });
    await expect(call).rejects.toBeInstanceOf(McpError);
    await expect(call).rejects.toMatchObject({ code: -32602 });
  });
});

describe('our McpClient against a server built with the official SDK', () => {
  afterEach(killAllPrograms);

  it('handshakes, lists and calls echo over NDJSON', async () => {
    const server = startNode(builtProgram('sdk-echo-server'));
    const client = new McpClient(new ChildTransport(server.child), { framing: 'ndjson', requestTimeoutMs: 5000 });

    const init = await client.connect();
    expect(init.serverInfo.name).toBe('sdk-echo-server');
    expect(client.state).toBe('ready');

    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['echo']);
    expect(tools[0]?.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });

    const result = await client.callTool('echo', { text: GREETING });
    expect(result.content).toEqual([{ type: 'text', text: GREETING }]);

    // SDK 1.x reports an unknown tool as an isError result, not -32602: the client must cope with both.
    const unknown = await client.callTool('no_such_tool', {});
    expect(unknown.isError).toBe(true);

    client.close();
    expect(await server.exit()).toEqual({ code: 0, signal: null });
    expect(server.stderr).toContain('sdk-echo-server');
  });
});
