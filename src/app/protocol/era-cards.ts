// The era switch's two failure cards, as stepper runs plus a reading of what the run recorded:
//
//   legacy-client   exercise 3's McpClient (handshake only) against a 2026-07-28-only server:
//                   initialize is answered with -32022 and a list of versions the client has
//                   never heard of. No way forward: the client cannot speak the modern era, and
//                   the server keeps no handshake to fall back to.
//   version-retry   the dual-era client offering a newer revision first: server/discover gets
//                   -32022 with data.supported, and the client asks again with the newest
//                   version both speak.
//
// Reading is pure (records in, verdict out), from the frames' parsed JSON on the arrows.

import { EraErrorCode, LEGACY_PROTOCOL_VERSIONS, META_PROTOCOL_VERSION } from '../../protocol/era/meta.ts';
import { eraConfig } from './era-runs.ts';
import type { PlanStep } from './step-plan.ts';
import type { Arrow, StepRecord } from './stepper-records.ts';
import type { RunConfig } from './stepper-types.ts';

export const ERA_CARD_IDS = ['legacy-client', 'version-retry'] as const;
export type EraCardId = (typeof ERA_CARD_IDS)[number];

/** The revision the retry card's client prefers: newer than anything the server speaks. */
export const FUTURE_VERSION = '2027-03-16';

const LAB_TIMEOUTS = { receiveMs: 2500, sendMs: 2500, exitMs: 3000 };
const GOODBYE: readonly PlanStep[] = [{ kind: 'close' }, { kind: 'exit' }];

export function eraCardConfig(id: EraCardId): RunConfig {
  if (id === 'legacy-client') {
    return { ...eraConfig('handshake', 'modern'), plan: [{ kind: 'initialize' }, { kind: 'receive' }, ...GOODBYE], settings: { framing: 'ndjson', faults: [] }, timeouts: LAB_TIMEOUTS };
  }
  const probe = eraConfig('probe', 'dual');
  return {
    ...probe,
    plan: [{ kind: 'connect' }, { kind: 'receive' }, { kind: 'receive' }, { kind: 'call-tool', name: 'echo', args: { text: 'again' } }, { kind: 'receive' }, ...GOODBYE],
    eraClient: { mode: 'probe', versions: [FUTURE_VERSION, '2026-07-28'] },
    timeouts: LAB_TIMEOUTS,
  };
}

export type EraCardVerdict =
  /** legacy-client: -32022 with only versions the handshake client does not speak. */
  | { kind: 'dead-end'; supported: string[]; requested: string; focus: number }
  /** version-retry: -32022, then the same request again with a version from data.supported, answered. */
  | { kind: 'retried'; requested: string; supported: string[]; retriedWith: string; focus: number }
  /** The run did not show what the card is about (another server, a run cut short). */
  | { kind: 'not-shown' };

export function readEraCard(id: EraCardId, records: readonly StepRecord[]): EraCardVerdict {
  const arrows = records.flatMap((record) => record.arrows);
  const refusal = arrows.find((arrow) => arrow.direction === 's2c' && unsupportedVersion(arrow) !== null);
  const data = refusal ? unsupportedVersion(refusal) : null;
  if (!refusal || !data) return { kind: 'not-shown' };
  if (id === 'legacy-client') {
    const common = data.supported.filter((version) => LEGACY_PROTOCOL_VERSIONS.includes(version));
    return refusal.method === 'initialize' && common.length === 0 ? { kind: 'dead-end', supported: data.supported, requested: data.requested, focus: refusal.seq } : { kind: 'not-shown' };
  }
  const retry = arrows.find((arrow) => arrow.seq > refusal.seq && arrow.direction === 'c2s' && arrow.kind === 'request' && arrow.method === refusal.method);
  const retriedWith = retry ? claimedVersion(retry) : null;
  const answered = retry && arrows.some((arrow) => arrow.direction === 's2c' && arrow.kind === 'response' && arrow.id === retry.id);
  if (retriedWith === null || !answered || !data.supported.includes(retriedWith)) return { kind: 'not-shown' };
  return { kind: 'retried', requested: data.requested, supported: data.supported, retriedWith, focus: refusal.seq };
}

function unsupportedVersion(arrow: Arrow): { supported: string[]; requested: string } | null {
  if (arrow.kind !== 'error-response') return null;
  const error = (arrow.value as { error?: { code?: unknown; data?: { supported?: unknown; requested?: unknown } } } | null)?.error;
  if (error?.code !== EraErrorCode.UnsupportedProtocolVersion) return null;
  const supported = Array.isArray(error.data?.supported) ? error.data.supported.filter((value): value is string => typeof value === 'string') : [];
  return { supported, requested: typeof error.data?.requested === 'string' ? error.data.requested : '?' };
}

function claimedVersion(arrow: Arrow): string | null {
  const meta = (arrow.value as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
  const version = meta?.[META_PROTOCOL_VERSION];
  return typeof version === 'string' ? version : null;
}
