// `#trace=1.<checksum>.<data>`: a small trace in a link, made the way share links are
// (src/exercise/share-link-codec.ts: deflate-raw, base64url, FNV-1a checksum), so a link cut short
// or garbled by a chat app is refused, never half-opened.

import { deflateRaw, fnv1a32, inflateRaw } from '../../exercise/share-link-codec.ts';
import { base64UrlToBytes, bytesToBase64Url } from '../../protocol/base64.ts';

export const TRACE_HASH_PREFIX = '#trace=';
const LINK_VERSION = '1';
/** Addresses much longer than this are cut by chat apps and some browsers: offer a file instead. */
export const MAX_TRACE_LINK_CHARS = 32_000;
/** A link never inflates to more than this (a few KB of deflate can expand a thousandfold). */
export const MAX_TRACE_LINK_BYTES = 4 * 1024 * 1024;

export function isTraceHash(hash: string): boolean {
  return hash.startsWith(TRACE_HASH_PREFIX);
}

/** The link's hash for a trace's text, or null when it would be too long for an address. */
export async function traceHash(text: string): Promise<string | null> {
  const bytes = new TextEncoder().encode(text);
  const hash = `${TRACE_HASH_PREFIX}${LINK_VERSION}.${fnv1a32(bytes)}.${bytesToBase64Url(await deflateRaw(bytes))}`;
  return hash.length <= MAX_TRACE_LINK_CHARS ? hash : null;
}

export type TraceLinkResult = { ok: true; text: string } | { ok: false; reason: 'format' | 'damaged' | 'too-large' };

/** The trace text a `#trace=` hash carries; the text is then read like any trace file. */
export async function readTraceHash(hash: string): Promise<TraceLinkResult> {
  const parts = hash.slice(TRACE_HASH_PREFIX.length).split('.');
  if (parts.length !== 3 || parts[0] !== LINK_VERSION || !/^[0-9a-f]{8}$/.test(parts[1]!)) return { ok: false, reason: 'format' };
  const data = base64UrlToBytes(parts[2]!);
  if (data === null) return { ok: false, reason: 'damaged' };
  let bytes: Uint8Array;
  try {
    bytes = await inflateRaw(data, MAX_TRACE_LINK_BYTES);
  } catch (error) {
    return { ok: false, reason: error instanceof Error && error.name === 'InflateLimitError' ? 'too-large' : 'damaged' };
  }
  if (fnv1a32(bytes) !== parts[1]) return { ok: false, reason: 'damaged' };
  return { ok: true, text: new TextDecoder().decode(bytes) };
}
