// What an answer to `server/discover` says about the server's era (basic/versioning.mdx
// "Backward Compatibility", transports/streamable-http.mdx "Backward Compatibility").

import { describe, expect, it } from 'vitest';
import { localFailureData } from './local-failure.ts';
import { classifyProbe, readDiscoverResult, type ProbeContext } from './probe.ts';

const stdio: ProbeContext = { ours: ['2026-07-28'], transport: 'stdio' };
const http: ProbeContext = { ours: ['2026-07-28'], transport: 'http' };
const discover = { resultType: 'complete', supportedVersions: ['2026-07-28', '2025-11-25'], capabilities: { tools: {} }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } } };

describe('classifyProbe', () => {
  it('a DiscoverResult offering one of our versions is modern at that version', () => {
    expect(classifyProbe({ kind: 'result', result: discover }, { ours: ['2027-01-01', '2026-07-28'], transport: 'stdio' })).toEqual({
      kind: 'modern',
      version: '2026-07-28',
      discover: { supportedVersions: ['2026-07-28', '2025-11-25'], capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } },
    });
  });

  it('a DiscoverResult with none of our versions falls back only to a handshake-era version it lists; no DiscoverResult at all means the handshake', () => {
    expect(classifyProbe({ kind: 'result', result: { ...discover, supportedVersions: ['2025-11-25'] } }, stdio).kind).toBe('legacy');
    expect(classifyProbe({ kind: 'result', result: { ...discover, supportedVersions: ['2027-06-01', '2025-06-18'] } }, stdio).kind).toBe('legacy');
    expect(classifyProbe({ kind: 'result', result: {} }, stdio).kind).toBe('legacy');
  });

  it('a DiscoverResult listing only modern versions we lack, or none, is a modern server we cannot talk to: fail, not the handshake', () => {
    expect(classifyProbe({ kind: 'result', result: { ...discover, supportedVersions: ['2027-06-01'] } }, stdio).kind).toBe('fail');
    expect(classifyProbe({ kind: 'result', result: { ...discover, supportedVersions: [] } }, http).kind).toBe('fail');
  });

  it('-32022 with a mutual version asks again with it; without one, a modern server we cannot talk to fails', () => {
    expect(classifyProbe({ kind: 'error', code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '2099-01-01' } }, { ours: ['2099-01-01', '2026-07-28'], transport: 'http' })).toEqual({ kind: 'retry', version: '2026-07-28' });
    expect(classifyProbe({ kind: 'error', code: -32022, message: 'no', data: { supported: ['2027-06-01'], requested: '2026-07-28' } }, stdio).kind).toBe('fail');
    expect(classifyProbe({ kind: 'error', code: -32022, message: 'no', data: { supported: ['2025-11-25'], requested: '2026-07-28' } }, stdio).kind).toBe('legacy');
    expect(classifyProbe({ kind: 'error', code: -32022, message: 'no data' }, stdio).kind).toBe('legacy');
  });

  it('the spec\'s other modern codes never fall back', () => {
    expect(classifyProbe({ kind: 'error', code: -32020, message: 'Header mismatch' }, http).kind).toBe('fail');
    expect(classifyProbe({ kind: 'error', code: -32021, message: 'Missing capability' }, http).kind).toBe('fail');
  });

  it('any other error from the server means a legacy server', () => {
    expect(classifyProbe({ kind: 'error', code: -32601, message: 'Method not found' }, stdio).kind).toBe('legacy');
    expect(classifyProbe({ kind: 'error', code: -32000, message: 'Bad Request: Server not initialized' }, http).kind).toBe('legacy');
  });

  it('HTTP: a 4xx without a JSON-RPC body is legacy; a denial, a server error or no answer is a failure', () => {
    const local = (status?: number) => ({ kind: 'error' as const, code: -32000, message: 'local', data: localFailureData(status === undefined ? {} : { status }) });
    expect(classifyProbe(local(400), http).kind).toBe('legacy');
    expect(classifyProbe(local(404), http).kind).toBe('legacy');
    expect(classifyProbe(local(405), http).kind).toBe('legacy');
    expect(classifyProbe(local(401), http).kind).toBe('fail');
    expect(classifyProbe(local(403), http).kind).toBe('fail');
    expect(classifyProbe(local(503), http).kind).toBe('fail');
    expect(classifyProbe(local(undefined), http).kind).toBe('fail');
  });

  it('silence is a legacy server on stdio and an outage on HTTP; a closed pipe is a failure', () => {
    expect(classifyProbe({ kind: 'timeout' }, stdio).kind).toBe('legacy');
    expect(classifyProbe({ kind: 'timeout' }, http).kind).toBe('fail');
    expect(classifyProbe({ kind: 'closed', reason: 'exit 1' }, stdio).kind).toBe('fail');
  });
});

describe('readDiscoverResult', () => {
  it('takes serverInfo from _meta, or from beside the fields as some early servers send it', () => {
    expect(readDiscoverResult({ supportedVersions: [], capabilities: {}, serverInfo: { name: 'x', version: '2' } })?.serverInfo).toEqual({ name: 'x', version: '2' });
    expect(readDiscoverResult({ supportedVersions: ['2026-07-28'] })).toBeUndefined();
    expect(readDiscoverResult({ supportedVersions: [1], capabilities: {} })).toBeUndefined();
  });
});
