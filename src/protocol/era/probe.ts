// Which era does this server speak? The dual-era client asks with `server/discover` (every modern
// server MUST implement it) and reads the answer the way basic/versioning.mdx says:
//
//   * a DiscoverResult that lists a version we speak        → modern, at that version;
//   * a DiscoverResult that lists none of ours               → still a modern server: fall back
//     only to what it lists (a handshake-era version our exercise-3 client speaks), else fail;
//   * -32022 UnsupportedProtocolVersion with a mutual modern version → a modern server: ask again
//     with that version (once), never fall back;
//   * -32020 or -32021, the spec's other own codes          → a modern server that refused the
//     request as sent: surface the error, never fall back;
//   * anything else — -32601 from a legacy server, a legacy HTTP server's 400 or 404 without a
//     modern error body, silence on stdio                    → a legacy server: run `initialize`.
//
// Silence means different things per transport: a local stdio process that does not answer an
// unknown method is a legacy one (some never answer before `initialize`), while an HTTP server
// that does not answer is down, which a fallback would not fix.

import { EraErrorCode, pickMutualVersion, readUnsupportedVersion, isModernProtocolVersion, LEGACY_PROTOCOL_VERSIONS, META_SERVER_INFO } from './meta.ts';
import type { Implementation } from '../mcp.ts';
import { readLocalHttpFailure } from './local-failure.ts';

export type ProbeTransportKind = 'stdio' | 'http';

/** What came back for one `server/discover`. */
export type ProbeOutcome =
  | { kind: 'result'; result: unknown }
  | { kind: 'error'; code: number; message: string; data?: unknown }
  | { kind: 'timeout' }
  | { kind: 'closed'; reason: string };

/** The `server/discover` result, as far as the client relies on it. */
export interface DiscoverResult {
  supportedVersions: string[];
  capabilities: Record<string, unknown>;
  serverInfo?: Implementation;
  instructions?: string;
}

export type ProbeVerdict =
  | { kind: 'modern'; version: string; discover: DiscoverResult }
  /** -32022 named a version we also speak: send the probe again with it. */
  | { kind: 'retry'; version: string }
  | { kind: 'legacy'; reason: string }
  /** A modern server we cannot talk to, or a failure a fallback would not fix. */
  | { kind: 'fail'; reason: string };

export interface ProbeContext {
  /** The modern versions the client offers, preferred first (one, when pinned). */
  ours: readonly string[];
  transport: ProbeTransportKind;
}

export function classifyProbe(outcome: ProbeOutcome, context: ProbeContext): ProbeVerdict {
  switch (outcome.kind) {
    case 'result': {
      const discover = readDiscoverResult(outcome.result);
      if (discover === undefined) return { kind: 'legacy', reason: 'the answer to server/discover is not a DiscoverResult' };
      const version = pickMutualVersion(context.ours, discover.supportedVersions);
      if (version !== undefined) return { kind: 'modern', version, discover };
      const offered = `server/discover offered ${discover.supportedVersions.join(', ') || 'no version'}, none of ours (${context.ours.join(', ')})`;
      // Only a server that answers server/discover sends a DiscoverResult, so it is modern: the
      // handshake is a way out only when the server itself lists a version of it.
      if (discover.supportedVersions.some((listed) => LEGACY_PROTOCOL_VERSIONS.includes(listed))) return { kind: 'legacy', reason: `${offered}; it also lists a handshake-era version` };
      return { kind: 'fail', reason: `${offered}, and no handshake-era version to fall back to` };
    }
    case 'error':
      return classifyError(outcome, context);
    case 'timeout':
      return context.transport === 'stdio'
        ? { kind: 'legacy', reason: 'no answer to server/discover: a local process that stays silent speaks the handshake' }
        : { kind: 'fail', reason: 'the HTTP server did not answer server/discover in time (an outage, not a legacy signal)' };
    case 'closed':
      return { kind: 'fail', reason: `the connection closed during the server/discover probe (${outcome.reason}); start the server again with era "legacy"` };
  }
}

function classifyError(error: { code: number; message: string; data?: unknown }, context: ProbeContext): ProbeVerdict {
  const local = readLocalHttpFailure(error.data);
  if (local !== undefined) {
    // Our own transport's report: no JSON-RPC body came back. A 4xx without a modern error is a
    // legacy server; no answer at all, a denial or a server error is not something `initialize` fixes.
    const { status } = local;
    if (status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403) {
      return { kind: 'legacy', reason: `HTTP ${status} without a modern JSON-RPC error body` };
    }
    return { kind: 'fail', reason: error.message };
  }
  if (error.code === EraErrorCode.UnsupportedProtocolVersion) {
    const data = readUnsupportedVersion(error);
    if (data === undefined) return { kind: 'legacy', reason: '-32022 without a "supported" list is not the modern error' };
    const mutual = pickMutualVersion(context.ours, data.supported);
    if (mutual !== undefined) return { kind: 'retry', version: mutual };
    if (data.supported.some(isModernProtocolVersion)) {
      return { kind: 'fail', reason: `the server speaks ${data.supported.join(', ')}, none of our ${context.ours.join(', ')}` };
    }
    return { kind: 'legacy', reason: `the server supports only handshake-era versions (${data.supported.join(', ')})` };
  }
  if (error.code === EraErrorCode.HeaderMismatch || error.code === EraErrorCode.MissingRequiredClientCapability) {
    return { kind: 'fail', reason: `a modern server refused server/discover with ${error.code}: ${error.message}` };
  }
  return { kind: 'legacy', reason: `server/discover answered with error ${error.code} (${error.message}), not a modern error` };
}

/** The fields of a DiscoverResult the client uses, or undefined when the value is not one. */
export function readDiscoverResult(value: unknown): DiscoverResult | undefined {
  if (!isObject(value)) return undefined;
  const { supportedVersions, capabilities, instructions } = value;
  if (!Array.isArray(supportedVersions) || !supportedVersions.every((v) => typeof v === 'string')) return undefined;
  if (!isObject(capabilities)) return undefined;
  const discover: DiscoverResult = { supportedVersions: supportedVersions as string[], capabilities };
  // The revision puts serverInfo in the result's _meta; some early servers put it beside the fields.
  const meta = isObject(value._meta) ? value._meta : {};
  const info = isImplementation(meta[META_SERVER_INFO]) ? meta[META_SERVER_INFO] : isImplementation(value.serverInfo) ? value.serverInfo : undefined;
  if (info !== undefined) discover.serverInfo = { name: info.name, version: info.version };
  if (typeof instructions === 'string') discover.instructions = instructions;
  return discover;
}

function isImplementation(value: unknown): value is Implementation {
  return isObject(value) && typeof value.name === 'string' && typeof value.version === 'string';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
