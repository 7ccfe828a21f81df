// createServerSession with a server factory: how the learner's exercise-4 class is put inside the
// echo server's session (see src/sandbox/learner-server-core.ts).

import { describe, expect, it } from 'vitest';
import { encodeRequest, type JsonRpcResponse } from './jsonrpc.ts';
import type { McpServerOptions } from './server.ts';
import { McpServer } from './server.ts';
import { createServerSession, referenceServerFactory, type SessionServer } from './server-session.ts';

const lineOf = (message: unknown) => new TextEncoder().encode(`${JSON.stringify(message)}\n`);

describe('createServerSession({ createServer })', () => {
  it('builds the reference McpServer by default', () => {
    const server = referenceServerFactory({ serverInfo: { name: 'x', version: '1' }, tools: [] });
    expect(server).toBeInstanceOf(McpServer);
  });

  it('calls the factory once with the echo server options (faults included) and serves through what it returns', async () => {
    const seen: McpServerOptions[] = [];
    const out: string[] = [];
    const session = createServerSession({
      framing: 'ndjson',
      faults: ['no-gate'],
      write: (bytes) => out.push(new TextDecoder().decode(bytes)),
      createServer: (options) => {
        seen.push(options);
        return { handle: (message) => ({ jsonrpc: '2.0', id: (message as { id: number }).id, result: { tools: options.tools.length } }) as JsonRpcResponse };
      },
    });
    session.push(lineOf(encodeRequest(7, 'tools/list')));
    await session.finish();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ serverInfo: { name: 'mcp-echo-server' }, requireInitialized: false });
    expect(seen[0]?.tools.map((tool) => tool.info.name).sort()).toEqual(['add', 'delay_echo', 'delete_file', 'echo', 'fail']);
    expect(JSON.parse(out.join(''))).toEqual({ jsonrpc: '2.0', id: 7, result: { tools: 5 } });
  });

  it('lets a factory that throws propagate (the runner turns it into a load failure)', () => {
    expect(() =>
      createServerSession({
        framing: 'ndjson',
        write: () => {},
        createServer: () => {
          throw new Error('constructor failed');
        },
      }),
    ).toThrow('constructor failed');
  });

  it("uses the server's own parseError when it has one, and the reference answer when its parseError throws", () => {
    const out: string[] = [];
    const custom: SessionServer = { handle: () => null, parseError: (detail) => ({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `mine: ${detail.slice(0, 3)}` } }) };
    const session = createServerSession({ framing: 'ndjson', write: (bytes) => out.push(new TextDecoder().decode(bytes)), createServer: () => custom });
    session.push(new TextEncoder().encode('{x\n'));
    expect(JSON.parse(out.pop() as string).error.message).toMatch(/^mine: /);

    const broken: SessionServer = {
      handle: () => null,
      parseError: () => {
        throw new Error('oops');
      },
    };
    const second = createServerSession({ framing: 'ndjson', write: (bytes) => out.push(new TextDecoder().decode(bytes)), createServer: () => broken });
    second.push(new TextEncoder().encode('{x\n'));
    const answer: unknown = JSON.parse(out.pop() as string);
    expect(answer).toMatchObject({ error: { code: -32700, message: expect.stringMatching(/^Parse error: /) } });
    expect(answer).not.toHaveProperty('id');
  });
});
