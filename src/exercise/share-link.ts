// A share link carries one exercise's code in the address's hash: `#share=1.<checksum>.<data>`,
// where data is base64url(deflate-raw(JSON {exercise, code})) and checksum is FNV-1a of that JSON.
//
// Why the hash: it never reaches a server (no request-line limits, nothing in access logs), and
// `#share=` cannot be mistaken for the `#protocol…` view or a section anchor, nor clash with the
// `?host=` / `?presenter=` query flags. Why a checksum: deflate-raw has none, and a link cut short or
// changed in transit must be refused rather than open someone else's code half-broken.

import { deflateRaw, fnv1a32, inflateRaw, InflateLimitError } from './share-link-codec.ts';
import { base64UrlToBytes, bytesToBase64Url } from '../protocol/base64.ts';

export const SHARE_HASH_PREFIX = '#share=';
export const SHARE_LINK_VERSION = 1;
/**
 * Longest hash we write or read. Browsers take far more, but links this long still survive chat
 * apps and e-mail; longer code belongs in an exported file.
 */
export const MAX_SHARE_HASH_CHARS = 8000;
/** What a link may expand to: far above any exercise file, far below a decompression bomb. */
export const MAX_SHARED_CODE_BYTES = 256 * 1024;

export interface SharedCode {
  exerciseId: string;
  code: string;
}

export type ShareLinkProblem =
  /** The code compresses to more than a link may carry (encode), or a link longer than we accept (decode). */
  | { reason: 'too-large'; size: number; limit: number }
  /** Made by a newer playground. */
  | { reason: 'newer-version'; version: string }
  /** Cut short, changed in transit, or never one of ours. `detail` is English, for logs. */
  | { reason: 'damaged'; detail: string };

export type ShareEncodeOutcome = { ok: true; hash: string } | { ok: false; problem: ShareLinkProblem };
export type ShareDecodeOutcome = { ok: true; shared: SharedCode } | { ok: false; problem: ShareLinkProblem };

/** True when the hash is meant as a share link (it may still be damaged). */
export function isShareHash(hash: string): boolean {
  return hash.startsWith(SHARE_HASH_PREFIX);
}

export async function encodeShareHash(shared: SharedCode): Promise<ShareEncodeOutcome> {
  const json = new TextEncoder().encode(JSON.stringify({ exercise: shared.exerciseId, code: shared.code }));
  if (json.byteLength > MAX_SHARED_CODE_BYTES) return { ok: false, problem: { reason: 'too-large', size: json.byteLength, limit: MAX_SHARED_CODE_BYTES } };
  const data = bytesToBase64Url(await deflateRaw(json));
  const hash = `${SHARE_HASH_PREFIX}${SHARE_LINK_VERSION}.${fnv1a32(json)}.${data}`;
  if (hash.length > MAX_SHARE_HASH_CHARS) return { ok: false, problem: { reason: 'too-large', size: hash.length, limit: MAX_SHARE_HASH_CHARS } };
  return { ok: true, hash };
}

const damaged = (detail: string): ShareDecodeOutcome => ({ ok: false, problem: { reason: 'damaged', detail } });

export async function decodeShareHash(hash: string): Promise<ShareDecodeOutcome> {
  if (!isShareHash(hash)) return damaged('not a share link');
  if (hash.length > MAX_SHARE_HASH_CHARS) return { ok: false, problem: { reason: 'too-large', size: hash.length, limit: MAX_SHARE_HASH_CHARS } };
  const parts = hash.slice(SHARE_HASH_PREFIX.length).split('.');
  const [version, checksum, data] = parts;
  if (version === undefined || !/^\d{1,6}$/.test(version)) return damaged('no version');
  if (Number(version) > SHARE_LINK_VERSION) return { ok: false, problem: { reason: 'newer-version', version } };
  if (Number(version) !== SHARE_LINK_VERSION) return damaged(`unknown version ${version}`);
  if (parts.length !== 3 || checksum === undefined || data === undefined || !/^[0-9a-f]{8}$/.test(checksum)) return damaged('not three dot-separated parts');
  const compressed = base64UrlToBytes(data);
  if (!compressed || compressed.byteLength === 0) return damaged('not base64url');
  let json: Uint8Array;
  try {
    json = await inflateRaw(compressed, MAX_SHARED_CODE_BYTES);
  } catch (error) {
    if (error instanceof InflateLimitError) return { ok: false, problem: { reason: 'too-large', size: error.limit + 1, limit: error.limit } };
    return damaged(`cannot decompress (${error instanceof Error ? error.message : String(error)})`);
  }
  if (fnv1a32(json) !== checksum) return damaged('checksum does not match');
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
  } catch {
    return damaged('not UTF-8 JSON');
  }
  if (typeof parsed !== 'object' || parsed === null) return damaged('not an object');
  const { exercise, code } = parsed as Record<string, unknown>;
  if (typeof exercise !== 'string' || typeof code !== 'string') return damaged('exercise or code missing');
  return { ok: true, shared: { exerciseId: exercise, code } };
}

/** The page address without any hash, plus the share hash: what the learner copies. */
export function shareUrl(location: { origin: string; pathname: string }, hash: string): string {
  return `${location.origin}${location.pathname}${hash}`;
}
