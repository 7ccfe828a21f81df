// The full-feature server over stdio: the session hands it a context whose messages are framed
// onto stdout like every answer, so progress, logs and server requests work there too.

import { describe, expect, it } from 'vitest';
import { encodeLine } from '../framing/ndjson.ts';
import { createServerSession } from '../server-session.ts';
import { createConformanceServer } from './conformance-fixtures.ts';

describe('FeatureServer over a stdio session', () => {
  it('writes progress and a sampling request to stdout, and takes the answer from stdin', async () => {
    const out: Record<string, unknown>[] = [];
    const session = createServerSession({
      framing: 'ndjson',
      createServer: () => createConformanceServer(),
      write: (bytes) => {
        for (const line of new TextDecoder().decode(bytes).split('\n')) if (line !== '') out.push(JSON.parse(line));
      },
    });
    session.push(encodeLine({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo: { name: 'c', version: '1' } } }));
    session.push(encodeLine({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    session.push(encodeLine({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 7 } } }));
    session.push(encodeLine({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_sampling', arguments: { prompt: 'hi' } } }));
    for (let turn = 0; turn < 100 && !out.some((message) => message.method === 'sampling/createMessage'); turn++) await new Promise((resolve) => setTimeout(resolve, 0));
    const request = out.find((message) => message.method === 'sampling/createMessage')!;
    session.push(encodeLine({ jsonrpc: '2.0', id: request.id, result: { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' } }));
    await session.finish();

    expect(out.filter((message) => message.method === 'notifications/progress').map((message) => (message.params as { progress: number }).progress)).toEqual([0, 50, 100]);
    expect(out.find((message) => message.id === 1)).toMatchObject({ result: { content: [{ type: 'text', text: 'Progress test completed' }] } });
    expect(out.find((message) => message.id === 2)).toMatchObject({ result: { content: [{ type: 'text', text: 'LLM response: ok' }] } });
  });
});
