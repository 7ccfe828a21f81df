// Turning one complete body into a ReadItem. Both framings end here, so both report broken
// bodies the same way.

import type { ReadItem } from './types.ts';

// `fatal`: a body cut in the middle of a character, or any other invalid UTF-8, must be refused,
// not quietly patched with U+FFFD and handed on as if it were what the sender wrote.
// decode() without { stream: true } keeps no state between calls, so one decoder serves every reader.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decode `body` as UTF-8 JSON: a message, or a bad-json error. Never throws. */
export function readJsonBody(body: Uint8Array, offset: number, length: number): ReadItem {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return { type: 'error', kind: 'bad-json', detail: 'body is not valid UTF-8', offset, length };
  }
  try {
    return { type: 'message', value: JSON.parse(text), offset, length };
  } catch (error) {
    return { type: 'error', kind: 'bad-json', detail: `body is not JSON: ${(error as Error).message}`, offset, length };
  }
}

/** The compact JSON text of `message`; throws a TypeError for values JSON cannot carry. */
export function toJsonText(message: unknown): string {
  const text: string | undefined = JSON.stringify(message);
  if (text === undefined) throw new TypeError(`a ${typeof message} cannot be encoded as JSON`);
  return text;
}

/**
 * What a push returns when it completed nothing: one shared, frozen empty list. Most pushes of a
 * long frame in small chunks complete nothing, and a new array for each is measurable. Callers
 * only read what a push returns.
 */
export const NOTHING_FOUND: ReadItem[] = Object.freeze([]) as unknown as ReadItem[];
