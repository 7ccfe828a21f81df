// Item 5 of issue 17: a real MCP server nobody here wrote (@modelcontextprotocol/server-memory,
// pinned exactly in package.json, built on the official SDK) recorded through the real tap, and the
// trace read back with the format's own reader: the handshake, tools/list and one tools/call, every
// byte as it crossed.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTrace, type TraceEvent } from '../../src/runtime/trace/index.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { recordThirdPartyServer, THIRD_PARTY_PACKAGE, THIRD_PARTY_SERVER, THIRD_PARTY_SESSION } from '../support/record-third-party.ts';
import { builtProgram } from './child-transport.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const bytesOf = (events: TraceEvent[], ev: 'c2s' | 's2c' | 'stderr'): Buffer =>
  Buffer.concat(events.flatMap((event) => (event.ev === ev ? [Buffer.from(event.b64, 'base64')] : [])));

describe(`${THIRD_PARTY_PACKAGE} through tap --record`, () => {
  it('is pinned to an exact version', () => {
    const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(manifest.devDependencies[THIRD_PARTY_PACKAGE]).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('records the handshake, tools/list and a tools/call, byte for byte', async () => {
    dir = mkdtempSync(join(tmpdir(), 'third-party-'));
    const traceFile = join(dir, 'memory-server.jsonl');
    const recording = await recordThirdPartyServer(builtProgram('tap'), traceFile, join(dir, 'memory.jsonl'));
    expect(recording.exitCode).toBe(0);

    const trace = parseTrace(readFileSync(traceFile));
    if ('error' in trace) throw new Error(trace.error.message);
    expect(trace.header).toMatchObject({ mode: 'stdio', framing: 'ndjson', framingSource: 'guessed' });
    expect(trace.header.mode === 'stdio' && trace.header.program.at(-1)).toBe(THIRD_PARTY_SERVER);
    expect(trace.events).toEqual(recording.printed);

    // c2s: exactly the bytes the test wrote. s2c: one reply per request, from the real server.
    expect(bytesOf(trace.events, 'c2s').equals(Buffer.concat(recording.sent))).toBe(true);
    const replies = bytesOf(trace.events, 's2c')
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; result: Record<string, unknown> });
    expect(replies.map((reply) => reply.id)).toEqual([0, 1, 2]);
    expect(replies[0]!.result).toMatchObject({ protocolVersion: THIRD_PARTY_SESSION.initialize.params.protocolVersion, serverInfo: { name: 'memory-server' } });
    const tools = (replies[1]!.result.tools as Array<{ name: string }>).map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(['create_entities', 'read_graph', 'search_nodes']));
    expect(replies[2]!.result).toMatchObject({
      structuredContent: { entities: [{ name: 'Ada Lovelace', entityType: 'person', observations: ['wrote the first program', '写了第一个程序'] }] },
    });
    expect(bytesOf(trace.events, 'stderr').toString('utf8')).toContain('Knowledge Graph MCP Server running on stdio');
    expect(trace.events.at(-1)).toMatchObject({ ev: 'exit', code: 0 });
    // The tool really ran: the server wrote its memory file.
    expect(readFileSync(join(dir, 'memory.jsonl'), 'utf8')).toContain('Ada Lovelace');
  });
});
