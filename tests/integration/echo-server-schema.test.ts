// The echo server against the MCP specification's released JSON schemas, one whole session per
// era, the bad inputs included (an unparsable line, invalid requests, an unknown method, bad
// params, an unknown tool), and EVERY message the server writes validated with a real JSON Schema
// validator against its own revision: the handshake era against 2025-11-25, the stateless era
// (`--era=modern`) against 2026-07-28. Both schemas are vendored byte for byte in
// tests/fixtures/mcp-schema/<revision>/ (source and commit in each README).

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { getFraming } from '../../src/protocol/framing/index.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { builtProgram, killAllPrograms, startNode } from './child-transport.ts';

type Wire = Record<string, unknown>;
type Revision = '2025-11-25' | '2026-07-28';

/** The released schema of a revision, with a validator per definition (`$defs`). */
function schemaOf(revision: Revision): (name: string) => ValidateFunction {
  const schema = JSON.parse(readFileSync(resolve(PROJECT_ROOT, 'tests/fixtures/mcp-schema', revision, 'schema.json'), 'utf8')) as object;
  // JSON Schema 2020-12: Ajv's 2020 class. Formats (uri, byte) are annotations here, not checked.
  const ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true, validateFormats: false, strict: false });
  ajv.addSchema(schema, 'mcp');
  return (name) => {
    const validate = ajv.getSchema(`mcp#/$defs/${name}`);
    if (validate === undefined) throw new Error(`no definition ${name} in the ${revision} schema`);
    return validate;
  };
}

function validators() {
  const get = schemaOf('2025-11-25');
  return {
    message: get('JSONRPCMessage'),
    results: {
      initialize: get('InitializeResult'),
      'tools/list': get('ListToolsResult'),
      'tools/call': get('CallToolResult'),
      ping: get('EmptyResult'),
    } as Record<string, ValidateFunction>,
  };
}

const line = (message: unknown) => `${JSON.stringify(message)}\n`;
const request = (id: number | string, method: string, params?: unknown) => line(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
const call = (id: number, name: string, args: unknown) => request(id, 'tools/call', { name, arguments: args });

/** What the client sends, in order, with the method of each request id (to pick the result's schema). */
const SESSION: Array<[text: string, method?: string, id?: number | string]> = [
  ['this line is not JSON\n'], // -32700, no readable id
  [line({ jsonrpc: '2.0', id: 50 })], // -32600: neither method nor result/error, answered with id 50
  [line({ jsonrpc: '2.0', method: 42 })], // -32600, no id at all
  [line({ jsonrpc: '2.0', id: null, method: 'ping' })], // -32600: a null request id is not an id
  [line([{ jsonrpc: '2.0', id: 1, method: 'ping' }])], // -32600: a batch
  [request(0, 'ping'), 'ping', 0], // ping works at any time
  [request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'schema-test', version: '1' } }), 'initialize', 1],
  [request(2, 'tools/list'), 'tools/list', 2], // before notifications/initialized: the chapter's gate
  [line({ jsonrpc: '2.0', method: 'notifications/initialized' })],
  [request(3, 'tools/list'), 'tools/list', 3],
  [call(4, 'echo', { text: '你好 👋' }), 'tools/call', 4],
  [call(5, 'add', { a: 2, b: 3 }), 'tools/call', 5],
  [call(6, 'fail', { message: 'on purpose' }), 'tools/call', 6], // a tool that fails: an isError result
  [call(7, 'no_such_tool', {}), 'tools/call', 7], // unknown tool
  [call(8, 'echo', { text: 42 }), 'tools/call', 8], // arguments that break the inputSchema
  [request(9, 'tools/call', { arguments: {} }), 'tools/call', 9], // no tool name: bad params
  [request(10, 'tools/call', 'not an object'), 'tools/call', 10], // params of the wrong type
  [request('eleven', 'resources/list'), 'resources/list', 'eleven'], // unknown method
  [request(12, 'tools/call', { name: 'delay_echo', arguments: { text: 'later', ms: 20 }, _meta: { progressToken: 'p-12' } }), 'tools/call', 12],
  [line({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99, reason: 'never sent' } })],
  [request(13, 'ping'), 'ping', 13],
];

afterEach(() => killAllPrograms());

describe('the handshake-era echo server against the released MCP 2025-11-25 JSON schema', () => {
  it('writes only schema-valid messages in a whole handshake-era session, bad inputs included', async () => {
    const check = validators();
    const program = startNode(builtProgram('echo-server'), ['--framing=ndjson']);
    await program.write(SESSION.map(([text]) => text).join(''));
    program.end();
    await program.closed;

    const reader = getFraming('ndjson').createReader();
    const items = program.stdoutChunks.flatMap((chunk) => reader.push(chunk));
    expect(items.filter((item) => item.type !== 'message'), 'unreadable frames on stdout').toEqual([]);
    const messages = items.flatMap((item) => (item.type === 'message' ? [item.value as Wire] : []));

    const methodOf = new Map(SESSION.flatMap(([, method, id]) => (method === undefined ? [] : [[JSON.stringify(id), method] as const])));
    const problems: string[] = [];
    let idLess = 0;
    for (const message of messages) {
      const text = JSON.stringify(message);
      if ('error' in message && !('id' in message)) idLess++;
      if (!check.message(message)) problems.push(`${text}: ${JSON.stringify(check.message.errors)}`);
      if ('result' in message) {
        const method = methodOf.get(JSON.stringify(message.id));
        const validate = method === undefined ? undefined : check.results[method];
        if (validate !== undefined && !validate(message.result)) problems.push(`${method} result ${text}: ${JSON.stringify(validate.errors)}`);
      }
    }

    expect(problems, 'messages the schema refuses').toEqual([]);
    // Every request got exactly one answer, and the unreadable ones were answered without an id.
    expect(messages.filter((message) => 'id' in message && message.id === null), 'answers with "id": null').toEqual([]);
    expect(idLess, 'error responses without an id (parse error, invalid requests without a usable id)').toBe(4);
    const answered = messages.filter((message) => 'id' in message).map((message) => JSON.stringify(message.id));
    expect(new Set(answered).size, 'one answer per id').toBe(answered.length);
    expect(answered.sort()).toEqual([...methodOf.keys(), '50'].sort());
  });

  it('the validator is not vacuous: it refuses what MCP narrows away (a null id, a null result, array params)', () => {
    const check = validators();
    const refused = [
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
      { jsonrpc: '2.0', id: 1, result: null },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [] },
      { jsonrpc: '2.0', id: 1.5, result: {} },
    ];
    for (const message of refused) expect(check.message(message), JSON.stringify(message)).toBe(false);
    expect(check.message({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } })).toBe(true);
  });
});

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'schema-test', version: '1' },
};
const modern = (id: number | string, method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = META) =>
  line({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } });

/** A 2026-07-28 session: no handshake, every request carries its envelope in _meta. */
const MODERN_SESSION: Array<[text: string, method?: string, id?: number | string]> = [
  ['this line is not JSON\n'], // -32700, no readable id
  [line({ jsonrpc: '2.0', method: 42 })], // -32600, no id at all
  [line({ jsonrpc: '2.0', id: 50 })], // -32600 with id 50
  [modern(1, 'server/discover'), 'server/discover', 1],
  [modern(2, 'tools/list'), 'tools/list', 2],
  [modern(3, 'tools/call', { name: 'echo', arguments: { text: '你好 👋' } }), 'tools/call', 3],
  [modern(4, 'tools/call', { name: 'add', arguments: { a: 2, b: 3 } }), 'tools/call', 4],
  [modern(5, 'tools/call', { name: 'fail', arguments: { message: 'on purpose' } }), 'tools/call', 5],
  [modern(6, 'tools/call', { name: 'greet', arguments: {} }), 'tools/call', 6], // an InputRequiredResult
  [modern(7, 'tools/call', { name: 'greet', arguments: {}, inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } } }), 'tools/call', 7],
  [modern(8, 'tools/call', { name: 'no_such_tool', arguments: {} }), 'tools/call', 8],
  [modern(9, 'tools/call', { name: 'echo', arguments: { text: 42 } }), 'tools/call', 9],
  [modern(10, 'resources/list'), 'resources/list', 10], // unknown method
  [modern(11, 'tools/list', {}, { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }), 'tools/list', 11], // -32022
  [line({ jsonrpc: '2.0', id: 12, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } } }), 'initialize', 12], // -32022
  [modern(13, 'tools/call', { name: 'delay_echo', arguments: { text: 'later', ms: 20 }, _meta: { ...META, progressToken: 'p-13' } }), 'tools/call', 13],
];

describe('the 2026-07-28 echo server against the released MCP 2026-07-28 JSON schema', () => {
  // Each answer is checked as the response definition of its method, which fixes the result's shape.
  const RESPONSES: Record<string, string> = { 'server/discover': 'DiscoverResultResponse', 'tools/list': 'ListToolsResultResponse', 'tools/call': 'CallToolResultResponse' };

  it('writes only schema-valid messages in a whole stateless session, bad inputs included', async () => {
    const get = schemaOf('2026-07-28');
    const message = get('JSONRPCMessage');
    const program = startNode(builtProgram('echo-server'), ['--era=modern']);
    await program.write(MODERN_SESSION.map(([text]) => text).join(''));
    program.end();
    await program.closed;

    const reader = getFraming('ndjson').createReader();
    const items = program.stdoutChunks.flatMap((chunk) => reader.push(chunk));
    expect(items.filter((item) => item.type !== 'message'), 'unreadable frames on stdout').toEqual([]);
    const messages = items.flatMap((item) => (item.type === 'message' ? [item.value as Wire] : []));

    const methodOf = new Map(MODERN_SESSION.flatMap(([, method, id]) => (method === undefined ? [] : [[JSON.stringify(id), method] as const])));
    const problems: string[] = [];
    for (const each of messages) {
      const text = JSON.stringify(each);
      if (!message(each)) problems.push(`${text}: ${JSON.stringify(message.errors)}`);
      const definition = 'result' in each ? RESPONSES[methodOf.get(JSON.stringify(each.id)) ?? ''] : undefined;
      if (definition !== undefined) {
        const validate = get(definition);
        if (!validate(each)) problems.push(`${definition} ${text}: ${JSON.stringify(validate.errors)}`);
      }
    }
    expect(problems, 'messages the schema refuses').toEqual([]);
    // What the session is about actually happened: a discover result, an input request and its answer, the -32022s.
    const byId = new Map(messages.filter((each) => 'id' in each).map((each) => [JSON.stringify(each.id), each]));
    expect(byId.get('1')).toMatchObject({ result: { supportedVersions: ['2026-07-28'], resultType: 'complete' } });
    expect(byId.get('6')).toMatchObject({ result: { resultType: 'input_required' } });
    expect(byId.get('7')).toMatchObject({ result: { resultType: 'complete', content: [{ type: 'text' }] } });
    expect([byId.get('11'), byId.get('12')].map((each) => (each as { error?: { code?: number } } | undefined)?.error?.code)).toEqual([-32022, -32022]);
    expect(messages.filter((each) => 'error' in each && !('id' in each)), 'id-less error responses').toHaveLength(2);
    const answered = messages.filter((each) => 'id' in each).map((each) => JSON.stringify(each.id));
    expect(new Set(answered).size, 'one answer per id').toBe(answered.length);
    expect(answered.sort()).toEqual([...methodOf.keys(), '50'].sort());
  });

  it('the validator is not vacuous: it refuses a discover result without ttlMs and a call result without resultType', () => {
    const get = schemaOf('2026-07-28');
    expect(get('DiscoverResultResponse')({ jsonrpc: '2.0', id: 1, result: { supportedVersions: ['2026-07-28'], capabilities: {}, cacheScope: 'public', resultType: 'complete' } })).toBe(false);
    expect(get('CallToolResultResponse')({ jsonrpc: '2.0', id: 1, result: { content: [] } })).toBe(false);
    expect(get('JSONRPCMessage')({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })).toBe(false);
  });
});

