// A follow message as text, for the room's relay (follow-relay.ts): the BroadcastChannel between
// tabs clones a message's bytes as they are, but HTTP carries text, so every Uint8Array (a frame
// in the byte inspector, an HTTP exchange's chunks) travels as {"$bytes": base64url} and comes
// back as bytes. What arrives still goes through decodeFollowMessage before anything is drawn.

import { base64UrlToBytes, bytesToBase64Url } from '../../protocol/base64.ts';
import type { FollowMessage } from './follow-message.ts';

const BYTES_KEY = '$bytes';

export function encodeFollowWire(message: FollowMessage): string {
  return JSON.stringify(message, (_key, value: unknown) => (value instanceof Uint8Array ? { [BYTES_KEY]: bytesToBase64Url(value) } : value));
}

/** The message's value with its bytes restored; undefined for text that is not JSON (the caller ignores it). */
export function decodeFollowWire(text: string): unknown {
  try {
    return JSON.parse(text, (_key, value: unknown) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
      const keys = Object.keys(value);
      if (keys.length !== 1 || keys[0] !== BYTES_KEY) return value;
      const encoded = (value as Record<string, unknown>)[BYTES_KEY];
      // Bytes that do not decode stay an object, which the follow view's check then refuses.
      return (typeof encoded === 'string' ? base64UrlToBytes(encoded) : null) ?? value;
    });
  } catch {
    return undefined;
  }
}
