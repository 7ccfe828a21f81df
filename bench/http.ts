// A tools/call round trip over Streamable HTTP on loopback, p50/p99 of 200 sequential calls, for
// each pairing of client and server: the project's McpClient (HttpClientTransport over fetch) and
// its handler behind node:http, against the official SDK's Client (StreamableHTTPClientTransport)
// and McpServer (StreamableHTTPServerTransport), all in one run on the same machine. Goal: the
// project's server and client no slower than the SDK's.

import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer as SdkMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { McpClient } from '../src/protocol/client.ts';
import { createEchoTools, ECHO_SERVER_INFO } from '../src/protocol/echo-tools.ts';
import { HttpClientTransport, HTTP_CLIENT_FRAMING } from '../src/protocol/http/client-transport.ts';
import { createHttpHandler } from '../src/protocol/http/server-handler.ts';
import { McpServer } from '../src/protocol/server.ts';
import { registerSdkEchoTool } from '../src/runtime/sdk-echo-tool.ts';
import { fetchExchange } from '../server/fetch-exchange.ts';
import { nodeListener } from '../server/http-node-adapter.ts';
import { percentile } from './report.ts';

export type Side = 'ours' | 'sdk';

export interface HttpRow {
  client: Side;
  server: Side;
  p50Ms: number;
  p99Ms: number;
}

export interface HttpPlan {
  /** Untimed calls on each client/server pair first. */
  warmUp: number;
  /** Timed calls, one at a time. */
  calls: number;
}

export const DEFAULT_HTTP_PLAN: HttpPlan = { warmUp: 30, calls: 200 };
const TEXT = 'echo: the quick brown fox 你好 🚀';

interface Running {
  url: string;
  stop(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

function stopper(server: Server, also: () => Promise<void> | void = () => {}): () => Promise<void> {
  return async () => {
    await also();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
}

async function startOurs(): Promise<Running> {
  const handler = createHttpHandler({ createServer: () => new McpServer({ serverInfo: ECHO_SERVER_INFO, tools: createEchoTools() }) });
  const server = createServer(nodeListener(handler));
  return { url: await listen(server), stop: stopper(server, () => handler.closeAll()) };
}

async function startSdk(): Promise<Running> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const servers: SdkMcpServer[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (transport === undefined) {
        const mcp = new SdkMcpServer({ name: 'sdk-echo-server', version: '1.0.0' });
        registerSdkEchoTool(mcp);
        servers.push(mcp);
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sessionId) => void sessions.set(sessionId, created) });
        await mcp.connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    })();
  });
  return { url: await listen(server), stop: stopper(server, async () => void (await Promise.all(servers.map((mcp) => mcp.close())))) };
}

interface Caller {
  call(): Promise<void>;
  close(): Promise<void>;
}

async function ourClient(url: string): Promise<Caller> {
  const client = new McpClient(new HttpClientTransport({ url, exchange: fetchExchange }), { framing: HTTP_CLIENT_FRAMING });
  await client.connect();
  return {
    call: async () => {
      const result = await client.callTool('echo', { text: TEXT });
      if (result.content[0]?.type !== 'text') throw new Error('echo did not answer with text');
    },
    close: async () => client.close(),
  };
}

async function sdkClient(url: string): Promise<Caller> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    call: async () => {
      const result = await client.callTool({ name: 'echo', arguments: { text: TEXT } });
      if ((result.content as { type: string }[])[0]?.type !== 'text') throw new Error('echo did not answer with text');
    },
    close: () => client.close(),
  };
}

async function measure(caller: Caller, plan: HttpPlan): Promise<number[]> {
  for (let i = 0; i < plan.warmUp; i++) await caller.call();
  const times: number[] = [];
  for (let i = 0; i < plan.calls; i++) {
    const start = performance.now();
    await caller.call();
    times.push(performance.now() - start);
  }
  return times;
}

export async function runHttpBench(plan: HttpPlan = DEFAULT_HTTP_PLAN): Promise<HttpRow[]> {
  const servers: Record<Side, Running> = { ours: await startOurs(), sdk: await startSdk() };
  const clients: Record<Side, (url: string) => Promise<Caller>> = { ours: ourClient, sdk: sdkClient };
  const rows: HttpRow[] = [];
  try {
    for (const server of ['sdk', 'ours'] as const) {
      for (const client of ['sdk', 'ours'] as const) {
        const caller = await clients[client](servers[server].url);
        const times = await measure(caller, plan);
        await caller.close();
        rows.push({ client, server, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) });
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((running) => running.stop()));
  }
  return rows;
}
