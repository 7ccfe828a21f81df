// Formatting for the message log: pure functions, so the rules are testable and the components
// only place their output.

import type { JsonRpcId } from '../../protocol/jsonrpc.ts';
import type { LogFrame } from './message-log.ts';

/** Show the bytes a reader cares about: CR and LF become visible marks (the line break is kept for LF). */
export function showControlCharacters(text: string): string {
  return text
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n\n')
    .replace(/\t/g, '\\t')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** `#0`, `#"abc"`: an id as JSON, so 1 and "1" look different (they are different ids). */
export function formatId(id: JsonRpcId | null): string {
  return id === null ? '' : `#${JSON.stringify(id)}`;
}

/** Tap time in ms, one decimal: enough to order events at a glance. */
export function formatTapTime(t: number): string {
  return t.toFixed(1);
}

export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** How many messages and unreadable frames a chunk completed. */
export function countFrames(frames: readonly LogFrame[]): { messages: number; errors: number } {
  let messages = 0;
  let errors = 0;
  for (const frame of frames) {
    if (frame.type === 'error' || frame.kind === 'invalid') errors++;
    else messages++;
  }
  return { messages, errors };
}
