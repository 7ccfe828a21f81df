// 这个服务器属于哪个时代？双时代客户端用 `server/discover` 来问（每个新时代服务器都必须（MUST）
// 实现它），并按 basic/versioning.mdx 的方式解读回答：
//
//   * 一个 DiscoverResult，列出了我们支持的版本              → 新时代，使用那个版本；
//   * 一个 DiscoverResult，没有列出我们的任何版本            → 仍是新时代服务器：只有在它列出了
//     某个版本（我们练习 3 的客户端支持的握手时代版本）时才回退到它，否则失败；
//   * -32022 UnsupportedProtocolVersion，且有双方共同的新时代版本 → 新时代服务器：用那个版本
//     再问一次（只一次），绝不回退；
//   * -32020 或 -32021，规范自己的另外两个错误码            → 一个拒绝了原样请求的新时代服务器：
//     把错误报告出来，绝不回退；
//   * 其他任何情况——旧时代服务器的 -32601、旧时代 HTTP 服务器不带新时代错误体的 400 或 404、
//     stdio 上的沉默                                         → 旧时代服务器：执行 `initialize`。
//
// 沉默在不同的传输上意味着不同的事：一个本地 stdio 进程不回答未知方法，说明它是旧时代的
// （有些在 `initialize` 之前从不回答）；而一个不回答的 HTTP 服务器是宕机了，回退也解决不了。

import { EraErrorCode, pickMutualVersion, readUnsupportedVersion, isModernProtocolVersion, LEGACY_PROTOCOL_VERSIONS, META_SERVER_INFO } from './meta.ts';
import type { Implementation } from '../mcp.ts';
import { readLocalHttpFailure } from './local-failure.ts';

export type ProbeTransportKind = 'stdio' | 'http';

/** 一次 `server/discover` 得到的回答。 */
export type ProbeOutcome =
  | { kind: 'result'; result: unknown }
  | { kind: 'error'; code: number; message: string; data?: unknown }
  | { kind: 'timeout' }
  | { kind: 'closed'; reason: string };

/** `server/discover` 的结果，只包括客户端依赖的部分。 */
export interface DiscoverResult {
  supportedVersions: string[];
  capabilities: Record<string, unknown>;
  serverInfo?: Implementation;
  instructions?: string;
}

export type ProbeVerdict =
  | { kind: 'modern'; version: string; discover: DiscoverResult }
  /** -32022 指出了一个我们也支持的版本：用它再发一次探测。 */
  | { kind: 'retry'; version: string }
  | { kind: 'legacy'; reason: string }
  /** 一个我们无法与之通信的新时代服务器，或者一个回退也解决不了的失败。 */
  | { kind: 'fail'; reason: string };

export interface ProbeContext {
  /** 客户端提供的新时代版本，优先的在前（固定版本时只有一个）。 */
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
      // 只有回答 server/discover 的服务器才会发来 DiscoverResult，所以它是新时代的：
      // 只有当服务器自己列出了一个握手时代的版本时，握手才是一条出路。
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
    // 我们自己的传输的报告：没有返回 JSON-RPC 消息体。不带新时代错误的 4xx 是旧时代服务器；
    // 完全没有回答、被拒绝或服务器错误，都不是 `initialize` 能解决的。
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

/** 客户端用到的 DiscoverResult 字段；这个值不是 DiscoverResult 时为 undefined。 */
export function readDiscoverResult(value: unknown): DiscoverResult | undefined {
  if (!isObject(value)) return undefined;
  const { supportedVersions, capabilities, instructions } = value;
  if (!Array.isArray(supportedVersions) || !supportedVersions.every((v) => typeof v === 'string')) return undefined;
  if (!isObject(capabilities)) return undefined;
  const discover: DiscoverResult = { supportedVersions: supportedVersions as string[], capabilities };
  // 这一版规范把 serverInfo 放在结果的 _meta 里；一些早期的服务器把它放在其他字段旁边。
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
