// The dual-era client's rules where no real server will misbehave on demand: a scripted peer on
// an in-memory pipe answers each request the way a test needs (a resultType nobody knows, an
// InputRequiredResult where none is allowed, a server that keeps asking, silence). The happy paths
// run against real servers in tests/integration/era-client-interop.test.ts.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeLine, LineReader } from '../framing/ndjson.ts';
import type { JsonRpcRequest } from '../jsonrpc.ts';
import type { ByteTransport } from '../transport.ts';
import { ProtocolViolationError } from '../client-errors.ts';
import { DualEraClient, type DualEraClientOptions } from './dual-era-client.ts';
import { InputRequiredError } from './era-errors.ts';
import { MemoryEraCache } from './era-cache.ts';

type Answer = { result: unknown } | { error: { code: number; message: string; data?: unknown } } | 'silence';

/** A pipe whose far end is `answer`: each request the client writes gets what `answer` returns. */
function scriptedPeer(answer: (request: JsonRpcRequest) => Answer) {
  const requests: JsonRpcRequest[] = [];
  const reader = new LineReader();
  const listeners = new Set<(chunk: Uint8Array) => void>();
  const transport: ByteTransport = {
    write(bytes) {
      for (const item of reader.push(bytes)) {
        if (item.type !== 'message') continue;
        const message = item.value as JsonRpcRequest;
        if (!('id' in message)) continue;
        requests.push(message);
        const reply = answer(message);
        if (reply === 'silence') continue;
        queueMicrotask(() => listeners.forEach((listener) => listener(encodeLine({ jsonrpc: '2.0', id: message.id, ...reply }))));
      }
    },
    end() {},
    onData(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onClose() {
      return () => {};
    },
  };
  return { transport, requests };
}

const discovered = { result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} } } };

function modernClient(answer: (request: JsonRpcRequest) => Answer, options: DualEraClientOptions = {}) {
  const peer = scriptedPeer((request) => (request.method === 'server/discover' ? discovered : answer(request)));
  const client = new DualEraClient({ kind: 'stdio', transport: peer.transport, framing: 'ndjson' }, options);
  return { client, requests: peer.requests };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('resultType', () => {
  it('a result without resultType is complete: no retry', async () => {
    const { client, requests } = modernClient(() => ({ result: { content: [{ type: 'text', text: 'old server' }] } }));
    await client.connect();
    expect(await client.callTool('x')).toEqual({ content: [{ type: 'text', text: 'old server' }] });
    expect(requests.filter((request) => request.method === 'tools/call')).toHaveLength(1);
  });

  it('an unknown resultType is invalid', async () => {
    const { client } = modernClient(() => ({ result: { resultType: 'task', content: [] } }));
    await client.connect();
    await expect(client.callTool('x')).rejects.toBeInstanceOf(ProtocolViolationError);
  });

  it('input_required on a method that may not carry it is a protocol violation', async () => {
    const { client } = modernClient(() => ({ result: { resultType: 'input_required', requestState: 's' } }));
    await client.connect();
    await expect(client.request('tools/list')).rejects.toThrow(/allowed only on tools\/call, resources\/read, prompts\/get/);
  });
});

describe('MRTR rounds', () => {
  it('retries at once when there is only requestState, and echoes it exactly', async () => {
    const state = '{"opaque": "Ünïcode ✓", "n": 1}';
    const { client, requests } = modernClient((request) =>
      (request.params as { requestState?: string }).requestState === state ? { result: { content: [{ type: 'text', text: 'done' }] } } : { result: { resultType: 'input_required', requestState: state } },
    );
    await client.connect();
    await client.callTool('x');
    const calls = requests.filter((request) => request.method === 'tools/call');
    expect(calls.map((call) => (call.params as Record<string, unknown>).requestState)).toEqual([undefined, state]);
    expect(calls[1]!.params).not.toHaveProperty('inputResponses');
  });

  it('a request whose input has no handler fails with InputRequiredError, and nothing is retried', async () => {
    const { client, requests } = modernClient(() => ({ result: { resultType: 'input_required', inputRequests: { model: { method: 'sampling/createMessage', params: {} } } } }));
    await client.connect();
    await expect(client.callTool('x')).rejects.toBeInstanceOf(InputRequiredError);
    expect(requests.filter((request) => request.method === 'tools/call')).toHaveLength(1);
  });

  it('gives up after maxInputRounds when the server keeps asking', async () => {
    const roots = vi.fn(() => ({ roots: [] }));
    const { client, requests } = modernClient(() => ({ result: { resultType: 'input_required', inputRequests: { r: { method: 'roots/list' } } } }), { inputHandlers: { 'roots/list': roots } });
    await client.connect();
    await expect(client.callTool('x')).rejects.toThrow(/still asking after 8 rounds/);
    expect(requests.filter((request) => request.method === 'tools/call')).toHaveLength(8);
    expect(roots).toHaveBeenCalledTimes(7);
    // Declared because there is a handler; the server may only ask for what is declared.
    expect((requests[0]!.params as { _meta: Record<string, unknown> })._meta['io.modelcontextprotocol/clientCapabilities']).toEqual({ roots: {} });
  });
});

describe('finding the era', () => {
  it('stdio: a server that never answers the probe is a legacy server', async () => {
    vi.useFakeTimers();
    const peer = scriptedPeer((request) =>
      request.method === 'server/discover' ? 'silence' : { result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'quiet', version: '1' } } },
    );
    const client = new DualEraClient({ kind: 'stdio', transport: peer.transport, framing: 'ndjson' }, { probeTimeoutMs: 3000 });
    const connected = client.connect();
    await vi.advanceTimersByTimeAsync(3000);
    expect(await connected).toMatchObject({ era: 'legacy', serverInfo: { name: 'quiet' } });
    // The probe's id is not reused by the handshake on the same pipe.
    expect(peer.requests.map((request) => [request.method, request.id])).toEqual([
      ['server/discover', 0],
      ['initialize', 1],
    ]);
  });

  it('a cached legacy verdict skips the probe; a handshake that then fails forgets it', async () => {
    const cache = { store: new MemoryEraCache(), serverKey: 'node server.js' };
    cache.store.set(cache.serverKey, { era: 'legacy' });
    const peer = scriptedPeer(() => ({ error: { code: -32601, message: 'Method not found: initialize' } }));
    const client = new DualEraClient({ kind: 'stdio', transport: peer.transport, framing: 'ndjson' }, { cache });
    await expect(client.connect()).rejects.toThrow(/-32601/);
    expect(peer.requests.map((request) => request.method)).toEqual(['initialize']);
    expect(cache.store.get(cache.serverKey)).toBeUndefined();
  });

  it('pinned, a server that answers -32022 without our version fails loudly', async () => {
    const peer = scriptedPeer(() => ({ error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2027-03-01'], requested: '2026-07-28' } } }));
    const client = new DualEraClient({ kind: 'stdio', transport: peer.transport, framing: 'ndjson' }, { era: { pin: '2026-07-28' } });
    await expect(client.connect()).rejects.toThrow(/speaks 2027-03-01, none of our 2026-07-28/);
  });
});
