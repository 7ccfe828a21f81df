// "Check my server": the learner's exercise-4 server, running in the live host as
// `learner-server`, driven by the OFFICIAL SDK's Client over our Wire. Code nobody here wrote
// decides whether the learner's server speaks MCP.
//
// Loaded only through a dynamic import: it pulls in the SDK (about 80 KB gzipped).

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Wire } from '../../runtime/host.ts';
import { CheckFailure, DEFAULT_CHECK_LIMIT_MS, pretty, runChecks, type Check, type CheckResult, type SdkCheckReport } from './check-run.ts';
import { watchServer, type ServerWatch } from './server-watch.ts';
import { WireTransport } from './wire-transport.ts';

/** Text with multi-byte characters: a server that counts or cuts bytes wrongly garbles it. */
export const SERVER_CHECK_TEXT = '你好, MCP 👋';
export const UNKNOWN_TOOL = 'no_such_tool';
const INVALID_PARAMS = -32602;
/** The SDK's own timeout fires this much after the check's, so the check's clearer message wins. */
const SDK_TIMEOUT_SLACK_MS = 1000;

export interface ServerCheckContext {
  client: Client;
  transport: WireTransport;
  /** Whatever the SDK reported through `onerror`: lines it could not read, responses nobody asked for. */
  sdkErrors: Error[];
  watch: ServerWatch;
  /** Passed to every SDK request: its own timeout (default 60 s) then follows the check's limit. */
  request: RequestOptions;
}

export const SERVER_CHECKS: readonly Check<ServerCheckContext>[] = [
  {
    id: 'handshake',
    title: 'handshake: the SDK client connects (initialize, then notifications/initialized)',
    code: "const client = new Client({ name: 'sdk-check', version: '1.0.0' });\nawait client.connect(transport);",
    async run({ client, transport, request }) {
      await client.connect(transport, request);
      const info = client.getServerVersion();
      if (typeof info?.name !== 'string' || info.name === '') throw new CheckFailure('The initialize result has no serverInfo.name.', 'serverInfo: { name, version }', pretty(info));
      if (client.getServerCapabilities()?.tools === undefined) {
        throw new CheckFailure('The server offers tools but its initialize result does not declare the tools capability.', '{ "tools": {} }', pretty(client.getServerCapabilities()));
      }
    },
  },
  {
    id: 'list-tools',
    title: 'listTools: echo is listed with an object input schema',
    code: 'const { tools } = await client.listTools();',
    async run({ client, request }) {
      const { tools } = await client.listTools(undefined, request);
      const echo = tools.find((tool) => tool.name === 'echo');
      if (echo === undefined) throw new CheckFailure('tools/list does not list echo.', '"echo" among the names', pretty(tools.map((tool) => tool.name)));
      if (echo.inputSchema?.type !== 'object') throw new CheckFailure('echo\'s inputSchema must be a JSON Schema of type "object".', '{ "type": "object", … }', pretty(echo.inputSchema));
    },
  },
  {
    id: 'call-echo',
    title: 'callTool echo: the same text comes back as one text block',
    code: `await client.callTool({ name: 'echo', arguments: { text: ${JSON.stringify(SERVER_CHECK_TEXT)} } });`,
    async run({ client, request }) {
      const result = await client.callTool({ name: 'echo', arguments: { text: SERVER_CHECK_TEXT } }, undefined, request);
      const expected = { content: [{ type: 'text', text: SERVER_CHECK_TEXT }] };
      if (result.isError === true || pretty(result.content) !== pretty(expected.content)) {
        throw new CheckFailure('echo did not return the text it was given.', pretty(expected), pretty(result));
      }
    },
  },
  {
    id: 'failing-tool',
    title: 'a failing tool is a result with isError: true, not a JSON-RPC error',
    code: "const result = await client.callTool({ name: 'fail', arguments: { message: 'on purpose' } });\n// result.isError === true",
    async run({ client, request }) {
      let result;
      try {
        result = await client.callTool({ name: 'fail', arguments: { message: 'on purpose' } }, undefined, request);
      } catch (error) {
        if (error instanceof McpError) {
          throw new CheckFailure(
            'The tool failure came back as a JSON-RPC error, so the SDK client threw instead of handing the failure to the model as text it can read.',
            '{ "content": [{ "type": "text", "text": "on purpose" }], "isError": true }',
            `error ${error.code}: ${error.message}`,
          );
        }
        throw error;
      }
      if (result.isError !== true) throw new CheckFailure('The failing tool\'s result does not say isError: true.', '"isError": true', pretty(result));
      const text = JSON.stringify(result.content);
      if (!text.includes('on purpose')) throw new CheckFailure("The result should carry the tool's own message.", 'a text block containing "on purpose"', pretty(result.content));
    },
  },
  {
    id: 'unknown-tool',
    title: 'an unknown tool is the protocol error -32602 (the SDK client throws McpError)',
    code: `await client.callTool({ name: '${UNKNOWN_TOOL}', arguments: {} });\n// rejects with McpError, code -32602`,
    async run({ client, request }) {
      let result;
      try {
        result = await client.callTool({ name: UNKNOWN_TOOL, arguments: {} }, undefined, request);
      } catch (error) {
        if (!(error instanceof McpError)) throw error;
        if (error.code !== INVALID_PARAMS) throw new CheckFailure(`An unknown tool must be answered with error code ${INVALID_PARAMS} (invalid params).`, `${INVALID_PARAMS}`, `${error.code}: ${error.message}`);
        return;
      }
      throw new CheckFailure(
        `The call was answered with a result. The chapter (and the specification) ask for the JSON-RPC error ${INVALID_PARAMS}: the tool does not exist, so nothing ran. (SDK 1.x servers answer with isError data instead; see the lesson.)`,
        `error ${INVALID_PARAMS}`,
        pretty(result),
      );
    },
  },
  {
    id: 'ping',
    title: 'ping is answered with an empty result',
    code: 'await client.ping();',
    async run({ client, request }) {
      await client.ping(request);
    },
  },
  {
    id: 'nothing-stray',
    title: 'nothing the SDK rejects arrived (no answers to notifications, no unknown ids)',
    code: "client.onerror = (error) => errors.push(error);\n// …every check above…\nawait client.ping(); // everything sent before it has arrived\n// errors.length === 0",
    async run({ client, sdkErrors, request }) {
      await client.ping(request);
      if (sdkErrors.length > 0) {
        throw new CheckFailure(
          `The SDK client reported ${sdkErrors.length === 1 ? 'a message it could not place' : `${sdkErrors.length} messages it could not place`}. A notification must never be answered, and every response must carry the id of a request that is waiting.`,
          'no errors',
          sdkErrors.map((error) => error.message).join('\n'),
        );
      }
    },
  },
];

export interface ServerCheckOptions {
  limitMs?: number;
  onResult?(result: CheckResult, index: number, total: number): void;
}

/** Runs every server check over a started server's wire; kills the server afterwards. */
export async function checkServer(wire: Wire, options: ServerCheckOptions = {}): Promise<SdkCheckReport> {
  const watch = watchServer(wire);
  const transport = new WireTransport(wire, { kill: () => wire.kill(), closeGraceMs: 500 });
  const client = new Client({ name: 'mcp-playground-sdk-check', version: '1.0.0' });
  const sdkErrors: Error[] = [];
  client.onerror = (error) => sdkErrors.push(error);
  const limitMs = options.limitMs ?? DEFAULT_CHECK_LIMIT_MS;
  const context: ServerCheckContext = { client, transport, sdkErrors, watch, request: { timeout: limitMs + SDK_TIMEOUT_SLACK_MS } };
  try {
    return await runChecks(SERVER_CHECKS, context, { suite: 'server', limitMs, watch, onResult: options.onResult });
  } finally {
    watch.dispose();
    await client.close().catch(() => {});
    wire.kill();
  }
}
