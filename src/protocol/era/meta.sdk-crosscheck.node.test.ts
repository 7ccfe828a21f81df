// The 2026-07-28 names in meta.ts against the official SDK 2.4.0's own constants: a key or code
// spelled differently from the SDK would make every modern exchange fail, so it must fail here.

import { describe, expect, it } from 'vitest';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  SERVER_INFO_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
} from '@modelcontextprotocol/server';
import {
  EraErrorCode,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_LOG_LEVEL,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  META_SUBSCRIPTION_ID,
  RETIRED_ERROR_CODES,
} from './meta.ts';

describe('meta.ts names match SDK 2.4.0', () => {
  it('uses the SDK _meta keys', () => {
    expect(META_PROTOCOL_VERSION).toBe(PROTOCOL_VERSION_META_KEY);
    expect(META_CLIENT_CAPABILITIES).toBe(CLIENT_CAPABILITIES_META_KEY);
    expect(META_CLIENT_INFO).toBe(CLIENT_INFO_META_KEY);
    expect(META_SERVER_INFO).toBe(SERVER_INFO_META_KEY);
    expect(META_LOG_LEVEL).toBe(LOG_LEVEL_META_KEY);
    expect(META_SUBSCRIPTION_ID).toBe(SUBSCRIPTION_ID_META_KEY);
  });

  it('uses the SDK error codes', () => {
    expect(EraErrorCode.MissingRequiredClientCapability).toBe(ProtocolErrorCode.MissingRequiredClientCapability);
    expect(EraErrorCode.UnsupportedProtocolVersion).toBe(ProtocolErrorCode.UnsupportedProtocolVersion);
    expect(RETIRED_ERROR_CODES.ResourceNotFound).toBe(ProtocolErrorCode.ResourceNotFound);
    expect(RETIRED_ERROR_CODES.UrlElicitationRequired).toBe(ProtocolErrorCode.UrlElicitationRequired);
    // The SDK keeps -32020 outside its public enum (HEADER_MISMATCH_ERROR_CODE); the spec's table
    // in basic/index.mdx names it HeaderMismatch.
    expect(EraErrorCode.HeaderMismatch).toBe(-32020);
  });
});
