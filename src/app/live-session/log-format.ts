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

/**
 * Levels of nesting shown before the rest is cut. JSON.stringify recurses once per level, so a
 * message nested 200,000 deep (which JSON.parse reads fine) throws a RangeError; nobody reads
 * past a few dozen levels anyway.
 */
export const MAX_PRETTY_DEPTH = 100;
/** What stands in for a cut subtree: a JSON string, so the output stays valid JSON. */
export const DEPTH_MARKER = '…';

export interface PrettyJson {
  text: string;
  /** True when some subtree was deeper than the limit and was replaced by the marker. */
  truncated: boolean;
}

/** JSON with two-space indent, depth-safe: subtrees below `maxDepth` levels become `marker`. */
export function prettyJsonSafe(value: unknown, maxDepth = MAX_PRETTY_DEPTH, marker = DEPTH_MARKER): PrettyJson {
  if (!deeperThan(value, maxDepth)) return { text: JSON.stringify(value, null, 2) ?? String(value), truncated: false };
  return { text: JSON.stringify(cutBelow(value, maxDepth, marker), null, 2) ?? String(value), truncated: true };
}

export function prettyJson(value: unknown): string {
  return prettyJsonSafe(value).text;
}

// Both walks recurse at most `limit` levels (they stop there), so they cannot overflow the stack.
function deeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit <= 0) return true;
  for (const child of Object.values(value)) if (deeperThan(child, limit - 1)) return true;
  return false;
}

function cutBelow(value: unknown, limit: number, marker: string): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (limit <= 0) return marker;
  if (Array.isArray(value)) return value.map((child) => cutBelow(child, limit - 1, marker));
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) copy[key] = cutBelow(child, limit - 1, marker);
  return copy;
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
