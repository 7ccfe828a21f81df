import { describe, expect, it } from 'vitest';
import {
  DUAL_ERA_PROTOCOL_VERSIONS,
  META_CLIENT_CAPABILITIES,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  isModernErrorCode,
  isModernProtocolVersion,
  pickMutualVersion,
  readEnvelope,
  readUnsupportedVersion,
  resultServerInfo,
  resultTypeOf,
  stampResult,
  unsupportedVersionData,
  withEnvelope,
} from './meta.ts';

describe('the _meta envelope', () => {
  it('round-trips through withEnvelope and readEnvelope, keeping other _meta keys', () => {
    const params = withEnvelope(
      { name: 'echo', _meta: { progressToken: 7 } },
      { protocolVersion: '2026-07-28', clientCapabilities: {}, clientInfo: { name: 'c', version: '1' }, logLevel: 'info' },
    );
    expect((params._meta as Record<string, unknown>).progressToken).toBe(7);
    expect(readEnvelope(params)).toEqual({
      kind: 'modern',
      envelope: { protocolVersion: '2026-07-28', clientCapabilities: {}, clientInfo: { name: 'c', version: '1' }, logLevel: 'info' },
    });
  });

  it('calls a request without the version key absent, and one missing capabilities invalid', () => {
    expect(readEnvelope(undefined).kind).toBe('absent');
    expect(readEnvelope({ _meta: { progressToken: 1 } }).kind).toBe('absent');
    expect(readEnvelope({ _meta: { [META_PROTOCOL_VERSION]: '2026-07-28' } }).kind).toBe('invalid');
    expect(readEnvelope({ _meta: { [META_PROTOCOL_VERSION]: 5, [META_CLIENT_CAPABILITIES]: {} } }).kind).toBe('invalid');
    expect(
      readEnvelope({ _meta: { [META_PROTOCOL_VERSION]: '2026-07-28', [META_CLIENT_CAPABILITIES]: {}, 'io.modelcontextprotocol/logLevel': 'loud' } })
        .kind,
    ).toBe('invalid');
  });
});

describe('results', () => {
  it('stamps resultType and serverInfo, and reads them back', () => {
    const stamped = stampResult({ tools: [], _meta: { x: 1 } }, { name: 's', version: '2' });
    expect(stamped.resultType).toBe('complete');
    expect(stamped._meta).toEqual({ x: 1, [META_SERVER_INFO]: { name: 's', version: '2' } });
    expect(resultServerInfo(stamped)).toEqual({ name: 's', version: '2' });
    expect(resultTypeOf(stampResult({}, undefined, 'input_required'))).toBe('input_required');
  });

  it('treats a missing resultType as complete', () => {
    expect(resultTypeOf({ tools: [] })).toBe('complete');
    expect(resultTypeOf({ resultType: 'later' })).toBe('later');
  });
});

describe('versions and errors', () => {
  it('orders modern first and recognises modern versions by date', () => {
    expect(DUAL_ERA_PROTOCOL_VERSIONS[0]).toBe('2026-07-28');
    expect(DUAL_ERA_PROTOCOL_VERSIONS).toContain('2025-11-25');
    expect(isModernProtocolVersion('2026-07-28')).toBe(true);
    expect(isModernProtocolVersion('2025-11-25')).toBe(false);
    expect(isModernProtocolVersion('banana')).toBe(false);
  });

  it('reads -32022 data and picks a mutual version', () => {
    const error = { code: -32022, message: 'Unsupported protocol version', data: unsupportedVersionData('1900-01-01') };
    const data = readUnsupportedVersion(error);
    expect(data?.requested).toBe('1900-01-01');
    expect(pickMutualVersion(['2027-01-01', '2026-07-28'], data!.supported)).toBe('2026-07-28');
    expect(pickMutualVersion(['2027-01-01'], data!.supported)).toBeUndefined();
    expect(readUnsupportedVersion({ code: -32602, data: {} })).toBeUndefined();
    expect([-32020, -32021, -32022].every(isModernErrorCode)).toBe(true);
    expect(isModernErrorCode(-32601)).toBe(false);
  });
});
