import { describe, expect, it } from 'vitest';
import { encodeLine } from './framing/ndjson.ts';
import { acceptWithDefaults, answerServerRequests } from './server-requests.ts';
import type { ByteTransport } from './transport.ts';

function fakeTransport() {
  const written: unknown[] = [];
  let deliver: (chunk: Uint8Array) => void = () => {};
  const transport: ByteTransport = {
    write: (bytes) => {
      for (const line of new TextDecoder().decode(bytes).split('\n')) if (line !== '') written.push(JSON.parse(line));
    },
    end: () => {},
    onData: (listener) => ((deliver = listener), () => {}),
    onClose: () => () => {},
  };
  return { transport, written, serverSends: (message: unknown) => deliver(encodeLine(message)) };
}

describe('answerServerRequests', () => {
  it('declares the capability in initialize, answers the handled request itself and passes the rest on', async () => {
    const { transport, written, serverSends } = fakeTransport();
    const wrapped = answerServerRequests(transport, { framing: 'ndjson', handlers: { 'elicitation/create': { capability: 'elicitation', handle: acceptWithDefaults } } });
    const seen: unknown[] = [];
    wrapped.onData((chunk) => seen.push(JSON.parse(new TextDecoder().decode(chunk))));

    wrapped.write(encodeLine({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { roots: {} }, clientInfo: { name: 'c', version: '1' } } }));
    expect(written[0]).toMatchObject({ params: { capabilities: { roots: {}, elicitation: {} } } });

    serverSends({ jsonrpc: '2.0', id: 'e1', method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object', properties: { age: { type: 'integer', default: 30 }, name: { type: 'string' } } } } });
    serverSends({ jsonrpc: '2.0', id: 9, method: 'ping' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(written[1]).toEqual({ jsonrpc: '2.0', id: 'e1', result: { action: 'accept', content: { age: 30 } } });
    expect(seen).toEqual([{ jsonrpc: '2.0', id: 9, method: 'ping' }]);
  });
});
