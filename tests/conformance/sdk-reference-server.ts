// The reference for the 2026-07-28 conformance run: the official SDK 2.4.0 serving the same
// fixtures through createMcpHandler (its dual-era HTTP entry), mounted on node:http with the SDK's
// own Host/Origin validation in front, as its documentation shows. Everything protocol — envelope,
// headers, versions, MRTR wire shapes, requestState sealing (createRequestStateCodec), caching
// hints, logging gating, subscriptions/listen — is the SDK's; only the fixture bodies (what a tool
// answers) are shared with our server, so the two runs differ exactly in the protocol code.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  McpServer,
  ResourceTemplate,
  createMcpHandler,
  createRequestStateCodec,
  fromJsonSchema,
  hostHeaderValidationResponse,
  inputRequired,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  type McpHttpHandler,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { CONFORMANCE_PROMPTS, CONFORMANCE_RESOURCES, CONFORMANCE_TEMPLATES } from '../../src/protocol/features/conformance-fixtures.ts';
import { COMPLETIONS, MRTR_PROMPT, createEraConformance, eraPromptOf } from '../../src/protocol/era/conformance-fixtures.ts';
import { isInputRequired, type EraContext, type EraPrompt, type InputRequiredResult } from '../../src/protocol/era/types.ts';
import type { LogLevel } from '../../src/protocol/features/types.ts';
import { META_CLIENT_CAPABILITIES } from '../../src/protocol/era/meta.ts';

type Codec = ReturnType<typeof createRequestStateCodec<string>>;

/** What a fixture body sees, from the SDK's handler context. */
function eraContext(ctx: ServerContext): EraContext {
  const meta = (ctx.mcpReq._meta ?? {}) as Record<string, unknown>;
  const token = typeof meta.progressToken === 'string' || typeof meta.progressToken === 'number' ? meta.progressToken : undefined;
  // The SDK lifts the reserved keys out of _meta into `envelope`, under their full names.
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const declared = envelope[META_CLIENT_CAPABILITIES];
  return {
    era: 'modern',
    signal: ctx.mcpReq.signal,
    progressToken: token,
    progress: (progress, total, message) => {
      if (token !== undefined) void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress, total, message } });
    },
    log: (level: LogLevel, data) => void ctx.mcpReq.log(level, data),
    clientCapabilities: typeof declared === 'object' && declared !== null ? (declared as Record<string, unknown>) : {},
    inputResponses: ctx.mcpReq.inputResponses as EraContext['inputResponses'],
    requestState: ctx.mcpReq.requestState<string>(),
  };
}

async function toSdkInputRequired(output: InputRequiredResult, codec: Codec) {
  return inputRequired({ inputRequests: output.inputRequests as never, requestState: output.requestState === undefined ? undefined : await codec.mint(output.requestState) });
}

function buildServer(codec: Codec, handler: () => McpHttpHandler): McpServer {
  const server = new McpServer(
    { name: 'sdk-2.4.0-reference', version: '2.4.0' },
    {
      capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true }, logging: {}, completions: {} },
      requestState: { verify: codec.verify },
    },
  );
  const { modern } = createEraConformance();
  for (const tool of modern.tools.values()) {
    const { name, description, inputSchema } = tool.info;
    // Handler types are cast: the fixtures are typed by our protocol layer, not by the SDK's generics.
    server.registerTool(name, { description, inputSchema: fromJsonSchema(inputSchema as never) }, (async (args: unknown, ctx: ServerContext) => {
      if (name === 'test_trigger_tool_change') return handler().notify.toolsChanged(), { content: [{ type: 'text', text: 'tools list changed' }] };
      if (name === 'test_trigger_prompt_change') return handler().notify.promptsChanged(), { content: [{ type: 'text', text: 'prompts list changed' }] };
      const output = await tool.run((args ?? {}) as Record<string, unknown>, eraContext(ctx));
      if (isInputRequired(output)) return toSdkInputRequired(output, codec);
      return typeof output === 'string' ? { content: [{ type: 'text', text: output }] } : output;
    }) as never);
  }
  for (const prompt of [...CONFORMANCE_PROMPTS.map(eraPromptOf), MRTR_PROMPT] as EraPrompt[]) {
    const shape = Object.fromEntries((prompt.arguments ?? []).map((argument) => [argument.name, argument.required === true ? z.string() : z.string().optional()]));
    server.registerPrompt(prompt.name, { description: prompt.description, argsSchema: z.object(shape) }, (async (args: Record<string, string>, ctx: ServerContext) => {
      const output = await prompt.get(args ?? {}, eraContext(ctx));
      if (isInputRequired(output)) return toSdkInputRequired(output, codec);
      return { description: prompt.description, messages: output };
    }) as never);
  }
  for (const resource of CONFORMANCE_RESOURCES) {
    server.registerResource(resource.name, resource.uri, { description: resource.description, mimeType: resource.mimeType }, async () => ({ contents: await resource.read() }));
  }
  for (const template of CONFORMANCE_TEMPLATES) {
    server.registerResource(template.name, new ResourceTemplate(template.uriTemplate, { list: undefined }), { description: template.description, mimeType: template.mimeType }, async (uri, variables) => ({
      contents: await template.read(uri.toString(), variables as Record<string, string>),
    }));
  }
  server.server.setRequestHandler('completion/complete', async (request) => {
    const values = COMPLETIONS.filter((value) => value.startsWith(String(request.params.argument.value)));
    return { completion: { values, total: values.length, hasMore: false } };
  });
  return server;
}

/** The SDK's createMcpHandler behind node:http on 127.0.0.1, port 0. */
export async function startSdkReference(): Promise<{ url: string; close(): Promise<void> }> {
  const codec = createRequestStateCodec<string>({ key: randomBytes(32) });
  let handler: McpHttpHandler | undefined;
  handler = createMcpHandler(() => buildServer(codec, () => handler!));
  const hosts = localhostAllowedHostnames();
  const origins = localhostAllowedOrigins();
  const http: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const abort = new AbortController();
      res.on('close', () => abort.abort());
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, { method: req.method, headers, body: hasBody ? Buffer.concat(chunks) : undefined, signal: abort.signal });
      try {
        const response = hostHeaderValidationResponse(request, hosts) ?? originValidationResponse(request, origins) ?? (await handler!.fetch(request));
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (response.body !== null) for await (const chunk of response.body) res.write(chunk);
        res.end();
      } catch {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  return {
    url,
    async close() {
      await handler?.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
