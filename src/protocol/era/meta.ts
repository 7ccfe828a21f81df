// The 2026-07-28 revision's vocabulary, shared by the dual-era server and the dual-era client.
// Every name here is checked against the specification (docs/specification/2026-07-28/:
// basic/index.mdx "_meta" and "Error Codes", basic/versioning.mdx, basic/patterns/mrtr.mdx,
// transports/streamable-http.mdx) and against SDK 2.4.0's @modelcontextprotocol/core constants
// (PROTOCOL_VERSION_META_KEY, …, ProtocolErrorCode, HEADER_MISMATCH_ERROR_CODE); meta.test.ts
// compares them with the SDK so a typo cannot survive.

import { SUPPORTED_PROTOCOL_VERSIONS, type Implementation } from '../mcp.ts';

/** The first (and so far only) modern revision: no handshake, `_meta` on every request. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
/** Modern revisions we speak, preferred first. */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION];
/** Handshake-era revisions we speak (initialize), newest first. */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = [...SUPPORTED_PROTOCOL_VERSIONS].reverse();
/** What a dual-era server lists in -32022's `data.supported` and in `server/discover`: modern first. */
export const DUAL_ERA_PROTOCOL_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];

/**
 * Whether a version belongs to the modern era. Revision ids are ISO dates, so string order is
 * date order (the SDK decides the same way).
 */
export function isModernProtocolVersion(version: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= MODERN_PROTOCOL_VERSION;
}

/** Reserved `_meta` keys (basic/index.mdx "Reserved keys"). */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
/** Deprecated with logging itself (SEP-2577) but the only way to ask for `notifications/message`. */
export const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
/** Stamped on every notification of a `subscriptions/listen` stream: the listen request's id. */
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** The spec's own codes, from the range -32020…-32099 it reserves for itself. */
export const EraErrorCode = {
  /** HTTP: `MCP-Protocol-Version` (or another mirrored header) disagrees with the body. */
  HeaderMismatch: -32020,
  /** The request needs a client capability its `_meta` did not declare; data.requiredCapabilities. */
  MissingRequiredClientCapability: -32021,
  /** The requested version is not served here; data.supported / data.requested. */
  UnsupportedProtocolVersion: -32022,
} as const;

/** Codes a modern implementation MUST NOT emit any more (resource not found is now -32602). */
export const RETIRED_ERROR_CODES = { ResourceNotFound: -32002, UrlElicitationRequired: -32042 } as const;

export const RESULT_TYPE_COMPLETE = 'complete';
export const RESULT_TYPE_INPUT_REQUIRED = 'input_required';
export type ResultType = typeof RESULT_TYPE_COMPLETE | typeof RESULT_TYPE_INPUT_REQUIRED;

/** Methods whose results MAY be an InputRequiredResult (mrtr.mdx "Supported Requests"). */
export const MRTR_METHODS: readonly string[] = ['tools/call', 'resources/read', 'prompts/get'];
/** HTTP: methods that also need the `Mcp-Name` header (params.name or params.uri). */
export const MCP_NAME_METHODS: readonly string[] = ['tools/call', 'resources/read', 'prompts/get'];

export const LOGGING_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

export type ClientCapabilities = Record<string, unknown>;

/** The per-request fields a modern request carries, read out of `params._meta`. */
export interface RequestEnvelope {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  logLevel?: LoggingLevel;
}

/** Why an envelope could not be read: missing or malformed required fields are -32602. */
export type EnvelopeReading =
  | { kind: 'modern'; envelope: RequestEnvelope }
  | { kind: 'absent' }
  | { kind: 'invalid'; message: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `params._meta` if it is an object, else undefined. */
export function requestMeta(params: unknown): Record<string, unknown> | undefined {
  if (!isObject(params)) return undefined;
  const meta = params._meta;
  return isObject(meta) ? meta : undefined;
}

/**
 * Read the per-request envelope. 'absent' when the request carries no protocolVersion key at all
 * (a legacy-shaped request); 'invalid' when it claims to be modern but a required field is
 * missing or has the wrong type (basic/index.mdx: reject with -32602).
 */
export function readEnvelope(params: unknown): EnvelopeReading {
  const meta = requestMeta(params);
  if (meta === undefined || !(META_PROTOCOL_VERSION in meta)) return { kind: 'absent' };
  const protocolVersion = meta[META_PROTOCOL_VERSION];
  if (typeof protocolVersion !== 'string' || protocolVersion === '') {
    return { kind: 'invalid', message: `_meta["${META_PROTOCOL_VERSION}"] must be a non-empty string` };
  }
  const clientCapabilities = meta[META_CLIENT_CAPABILITIES];
  if (!isObject(clientCapabilities)) {
    return { kind: 'invalid', message: `_meta["${META_CLIENT_CAPABILITIES}"] is required and must be an object` };
  }
  const envelope: RequestEnvelope = { protocolVersion, clientCapabilities };
  const clientInfo = meta[META_CLIENT_INFO];
  if (isObject(clientInfo) && typeof clientInfo.name === 'string' && typeof clientInfo.version === 'string') {
    envelope.clientInfo = { name: clientInfo.name, version: clientInfo.version };
  }
  const logLevel = meta[META_LOG_LEVEL];
  if (logLevel !== undefined) {
    if (typeof logLevel !== 'string' || !(LOGGING_LEVELS as readonly string[]).includes(logLevel)) {
      return { kind: 'invalid', message: `_meta["${META_LOG_LEVEL}"] must be one of ${LOGGING_LEVELS.join(', ')}` };
    }
    envelope.logLevel = logLevel as LoggingLevel;
  }
  return { kind: 'modern', envelope };
}

/** The `_meta` object a modern client puts on a request. */
export function envelopeMeta(envelope: RequestEnvelope): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    [META_PROTOCOL_VERSION]: envelope.protocolVersion,
    [META_CLIENT_CAPABILITIES]: envelope.clientCapabilities,
  };
  if (envelope.clientInfo) meta[META_CLIENT_INFO] = envelope.clientInfo;
  if (envelope.logLevel) meta[META_LOG_LEVEL] = envelope.logLevel;
  return meta;
}

/** Params with the envelope merged into `_meta`, keeping any `_meta` keys already there. */
export function withEnvelope(params: Record<string, unknown> | undefined, envelope: RequestEnvelope): Record<string, unknown> {
  const base = params ?? {};
  const existing = isObject(base._meta) ? base._meta : {};
  return { ...base, _meta: { ...existing, ...envelopeMeta(envelope) } };
}

/** A result as a modern server sends it: `resultType` set, serverInfo in `_meta`. */
export function stampResult(
  result: Record<string, unknown>,
  serverInfo: Implementation | undefined,
  resultType: ResultType = RESULT_TYPE_COMPLETE,
): Record<string, unknown> {
  const stamped: Record<string, unknown> = { ...result, resultType: result.resultType ?? resultType };
  if (serverInfo) {
    const existing = isObject(result._meta) ? result._meta : {};
    stamped._meta = { ...existing, [META_SERVER_INFO]: serverInfo };
  }
  return stamped;
}

/** A result's `resultType`; absent means 'complete' (an older server), unknown is reported as is. */
export function resultTypeOf(result: unknown): string {
  if (!isObject(result) || result.resultType === undefined) return RESULT_TYPE_COMPLETE;
  return typeof result.resultType === 'string' ? result.resultType : String(result.resultType);
}

/** The serverInfo a modern result carries in `_meta`, if it is well-formed. */
export function resultServerInfo(result: unknown): Implementation | undefined {
  const meta = isObject(result) && isObject(result._meta) ? result._meta : undefined;
  const info = meta?.[META_SERVER_INFO];
  return isObject(info) && typeof info.name === 'string' && typeof info.version === 'string'
    ? { name: info.name, version: info.version }
    : undefined;
}

/** -32022's data: what the server supports and what the client asked for. */
export interface UnsupportedVersionData {
  supported: string[];
  requested: string;
}

export function unsupportedVersionData(requested: string, supported: readonly string[] = DUAL_ERA_PROTOCOL_VERSIONS): UnsupportedVersionData {
  return { supported: [...supported], requested };
}

/** Read -32022's data from an error object; undefined when it is not a well-formed -32022. */
export function readUnsupportedVersion(error: unknown): UnsupportedVersionData | undefined {
  if (!isObject(error) || error.code !== EraErrorCode.UnsupportedProtocolVersion || !isObject(error.data)) return undefined;
  const { supported, requested } = error.data;
  if (!Array.isArray(supported) || !supported.every((v) => typeof v === 'string')) return undefined;
  return { supported: supported as string[], requested: typeof requested === 'string' ? requested : '' };
}

/** The newest version both sides speak, in `ours` order; undefined when there is none. */
export function pickMutualVersion(ours: readonly string[], theirs: readonly string[]): string | undefined {
  return ours.find((version) => theirs.includes(version));
}

/** Whether an error code is one a modern server answers with (the dual-era client stays modern). */
export function isModernErrorCode(code: unknown): boolean {
  return (
    code === EraErrorCode.HeaderMismatch ||
    code === EraErrorCode.MissingRequiredClientCapability ||
    code === EraErrorCode.UnsupportedProtocolVersion
  );
}
