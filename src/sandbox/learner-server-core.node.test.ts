import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeNotification, encodeRequest } from '../protocol/jsonrpc.ts';
import { LATEST_PROTOCOL_VERSION } from '../protocol/mcp.ts';
import { loadLearnerServer, startLearnerSession } from './learner-server-core.ts';
import { PROTOCOL_MODULE_MAP } from './protocol-module-map.ts';

const REFERENCE = { code: readFileSync(join(import.meta.dirname, '../protocol/server.ts'), 'utf8'), file: 'server.ts', moduleId: '@protocol/server' };
const deps = { protocolModules: PROTOCOL_MODULE_MAP };
const lines = (...messages: unknown[]) => new TextEncoder().encode(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));

/** Run a session over NDJSON to its end; return what it wrote, parsed. */
async function converse(code: string, ...messages: unknown[]) {
  const out: string[] = [];
  const log: string[] = [];
  const started = startLearnerSession({ ...REFERENCE, code }, { framing: 'ndjson', write: (bytes) => out.push(new TextDecoder().decode(bytes)), log: (line) => log.push(line) }, deps);
  if (!started.ok) throw new Error(started.message);
  started.value.push(lines(...messages));
  await started.value.finish();
  return { replies: out.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>), log };
}

const INITIALIZE = encodeRequest(1, 'initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 't', version: '1' } });

describe('loadLearnerServer + startLearnerSession', () => {
  it("runs the learner's class inside the echo session: the echo tools answer through it", async () => {
    const { replies, log } = await converse(
      REFERENCE.code,
      INITIALIZE,
      encodeNotification('notifications/initialized'),
      encodeRequest(2, 'tools/call', { name: 'add', arguments: { a: 2, b: 3 } }),
    );
    expect(replies.map((reply) => reply.id)).toEqual([1, 2]);
    expect(replies[1]?.result).toEqual({ content: [{ type: 'text', text: '5' }] });
    expect(log).toContain('request tools/call #2');
  });

  it("uses the learner's class, not the reference: a class that answers everything with one result is heard", async () => {
    const code = "export class McpServer {\n  constructor(options) { this.name = options.serverInfo.name; }\n  async handle(message) { return { jsonrpc: '2.0', id: message.id, result: { from: this.name } }; }\n}\n";
    const { replies } = await converse(code, INITIALIZE);
    expect(replies).toEqual([{ jsonrpc: '2.0', id: 1, result: { from: 'mcp-echo-server' } }]);
  });

  it('a handle() that throws synchronously still gets the request an Internal error, and is logged', async () => {
    const code = "export class McpServer {\n  handle() { throw new Error('boom'); }\n}\n";
    const { replies, log } = await converse(code, INITIALIZE);
    expect(replies).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } }]);
    expect(log.some((line) => line.includes('boom'))).toBe(true);
  });

  it('a server without parseError still answers bad JSON with -32700', async () => {
    const code = 'export class McpServer {\n  async handle() { return null; }\n}\n';
    const out: string[] = [];
    const started = startLearnerSession({ ...REFERENCE, code }, { framing: 'ndjson', write: (bytes) => out.push(new TextDecoder().decode(bytes)) }, deps);
    if (!started.ok) throw new Error(started.message);
    started.value.push(new TextEncoder().encode('{not json\n'));
    expect(JSON.parse(out.join(''))).toMatchObject({ error: { code: -32700 } });
    expect(JSON.parse(out.join(''))).not.toHaveProperty('id');
  });

  it('a syntax error names the file, line and column', () => {
    const loaded = loadLearnerServer({ code: 'export class McpServer {\n  handle() { return 1 +; }\n}\n', file: 'server.ts' }, deps);
    expect(loaded).toEqual({ ok: false, message: expect.stringMatching(/^server\.ts:2:\d+: Unexpected token/) });
  });

  it('an error thrown while the module runs names the line', () => {
    const loaded = loadLearnerServer({ code: "const x = 1;\nthrow new TypeError('top level');\nexport class McpServer {}\n", file: 'server.ts' }, deps);
    expect(loaded).toEqual({ ok: false, message: 'server.ts:2: TypeError: top level' });
  });

  it('a missing export names what the file does export', () => {
    expect(loadLearnerServer({ code: 'export const McpClient = 1;\n', file: 'server.ts' }, deps)).toEqual({
      ok: false,
      message: "server.ts does not export 'McpServer' (it exports McpClient). Check the name, and that it is declared with `export`.",
    });
  });

  it('an export that is not a class says what it is', () => {
    expect(loadLearnerServer({ code: 'export const McpServer = 42;\n', file: 'server.ts' }, deps)).toEqual({
      ok: false,
      message: 'server.ts must export a class McpServer, but its McpServer is a number',
    });
  });

  it('an import that does not exist is refused with the list of what can be imported', () => {
    const loaded = loadLearnerServer({ code: "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\nexport class McpServer {}\n", file: 'server.ts' }, deps);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.message).toContain("Cannot import 'node:fs'");
  });

  it('a constructor that throws, and an instance without handle(), fail the start with a clear message', () => {
    const throws = "export class McpServer {\n  constructor() {\n    throw new RangeError('not yet');\n  }\n}\n";
    const noHandle = 'export class McpServer {}\n';
    const start = (code: string) => startLearnerSession({ code, file: 'server.ts' }, { framing: 'ndjson', write: () => {} }, deps);
    expect(start(throws)).toEqual({ ok: false, message: 'server.ts:3: new McpServer(...) threw RangeError: not yet' });
    expect(start(noHandle)).toEqual({ ok: false, message: 'server.ts: an McpServer needs a method handle(message)' });
  });

  it('hides the globals it is told to hide', () => {
    const code = "if (typeof fetch !== 'undefined') throw new Error('fetch is visible');\nexport class McpServer { handle() { return null; } }\n";
    expect(loadLearnerServer({ code, file: 'server.ts' }, { ...deps, shadowedGlobals: { fetch: undefined } }).ok).toBe(true);
    expect(loadLearnerServer({ code, file: 'server.ts' }, deps)).toEqual({ ok: false, message: 'server.ts:1: Error: fetch is visible' });
  });
});
