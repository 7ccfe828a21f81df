import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  FAULT_DESCRIPTIONS,
  FAULT_NAMES,
  STDIO_FAULT_NAMES,
  MAX_WRITE_BYTES,
  buggyNotificationReply,
  encodeWithCharLength,
  isFaultName,
  splitIntoWrites,
  stdoutLogLine,
  toolFailureAsRpcError,
} from './faults.ts';
import { encodeError, encodeNotification, encodeResult } from './jsonrpc.ts';

const utf8 = new TextEncoder();
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A small deterministic generator (mulberry32), so split points are repeatable. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function concat(pieces: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/** Byte offsets where one piece ends and the next begins. */
function cutPoints(pieces: Uint8Array[]): number[] {
  const cuts: number[] = [];
  let at = 0;
  for (const piece of pieces.slice(0, -1)) cuts.push((at += piece.length));
  return cuts;
}

const isContinuation = (byte: number | undefined) => byte !== undefined && (byte & 0xc0) === 0x80;

describe('fault names and descriptions', () => {
  it('lists the seven faults, each with a one-sentence English description', () => {
    expect(FAULT_NAMES).toEqual(['stdout-log', 'char-length', 'reply-to-notification', 'error-as-rpc-error', 'split-writes', 'no-gate', 'close-streams-early']);
    expect(STDIO_FAULT_NAMES).toEqual(FAULT_NAMES.filter((name) => name !== 'close-streams-early'));
    expect(Object.keys(FAULT_DESCRIPTIONS).sort()).toEqual([...FAULT_NAMES].sort());
    for (const name of FAULT_NAMES) {
      const sentence = FAULT_DESCRIPTIONS[name];
      expect(sentence, name).toMatch(/^[A-Z].*\.$/s);
      expect(sentence.split(/\.\s+[A-Z]/)).toHaveLength(1);
      expect(sentence).not.toMatch(/\n/);
    }
  });

  it('recognises fault names and nothing else', () => {
    for (const name of FAULT_NAMES) expect(isFaultName(name)).toBe(true);
    for (const other of ['', 'stdout', 'Stdout-log', 'no_gate', 'toString']) expect(isFaultName(other)).toBe(false);
  });
});

describe('stdout-log', () => {
  it('is a plain text line ending in a newline', () => {
    expect(stdoutLogLine('tools/call #3')).toBe('[echo-server] answering tools/call #3\n');
  });
});

describe('char-length', () => {
  it('counts UTF-16 code units: "你好" is declared as 2 more than the quotes, not 6', () => {
    const message = { text: '你好' };
    const frame = decode(encodeWithCharLength(message));
    const body = JSON.stringify(message); // {"text":"你好"}: 13 code units, 17 UTF-8 bytes
    expect(frame).toBe(`Content-Length: ${body.length}\r\n\r\n${body}`);
    expect(body.length).toBe(13);
    expect(utf8.encode(body).length).toBe(17);
  });

  it('declares the JSON string "你好" as 4 (2 characters + 2 quotes) instead of its 8 bytes', () => {
    expect(decode(encodeWithCharLength('你好'))).toBe('Content-Length: 4\r\n\r\n"你好"');
    expect(utf8.encode('"你好"').length).toBe(8);
  });

  it('agrees with a correct header for pure ASCII, which is why the bug hides', () => {
    const body = JSON.stringify({ text: 'hello' });
    expect(decode(encodeWithCharLength({ text: 'hello' }))).toBe(`Content-Length: ${utf8.encode(body).length}\r\n\r\n${body}`);
  });
});

describe('reply-to-notification', () => {
  it('serialises as a response with no id at all', () => {
    const reply = buggyNotificationReply(encodeNotification('notifications/initialized'));
    expect(JSON.stringify(reply)).toBe('{"jsonrpc":"2.0","result":{}}');
  });
});

describe('error-as-rpc-error', () => {
  it('turns an isError result into a -32603 error carrying the failure text', () => {
    const failure = encodeResult(7, { content: [{ type: 'text', text: 'disk on fire' }], isError: true });
    expect(toolFailureAsRpcError(failure)).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'disk on fire' } });
  });

  it('joins several text blocks and falls back when there is no text', () => {
    const two = encodeResult('a', { content: [{ type: 'text', text: 'one' }, { type: 'image', data: '', mimeType: 'image/png' }, { type: 'text', text: 'two' }], isError: true });
    expect(toolFailureAsRpcError(two)).toMatchObject({ id: 'a', error: { message: 'one\ntwo' } });
    expect(toolFailureAsRpcError(encodeResult(1, { content: [], isError: true }))).toMatchObject({ error: { message: 'Tool failed' } });
  });

  it('leaves successes, other results and errors alone', () => {
    const ok = encodeResult(1, { content: [{ type: 'text', text: 'fine' }] });
    const notError = encodeResult(1, { content: [], isError: false });
    const pong = encodeResult(2, {});
    const nullResult = encodeResult(3, null);
    const rpcError = encodeError(4, -32602, 'Unknown tool: x');
    for (const response of [ok, notError, pong, nullResult, rpcError]) expect(toolFailureAsRpcError(response)).toBe(response);
  });
});

describe('split-writes', () => {
  const frame = utf8.encode('Content-Length: 27\r\n\r\n{"text":"你好 🚀 wörld"}');

  it('cuts a frame into several pieces of 1..7 bytes that concatenate back exactly', () => {
    const pieces = splitIntoWrites(frame, seededRandom(1));
    expect(pieces.length).toBeGreaterThan(frame.length / MAX_WRITE_BYTES);
    for (const piece of pieces) {
      expect(piece.length).toBeGreaterThanOrEqual(1);
      expect(piece.length).toBeLessThanOrEqual(MAX_WRITE_BYTES);
    }
    expect(concat(pieces)).toEqual(frame);
  });

  it('always cuts inside at least one multi-byte character', () => {
    for (let seed = 0; seed < 50; seed++) {
      const pieces = splitIntoWrites(frame, seededRandom(seed));
      const inside = cutPoints(pieces).filter((cut) => isContinuation(frame[cut]));
      expect(inside.length, `seed ${seed}`).toBeGreaterThan(0);
      // The receiving side really sees a broken character if it decodes a chunk on its own.
      const chunkIndex = pieces.findIndex((_piece, i) => isContinuation(pieces[i + 1]?.[0]));
      expect(decode(pieces[chunkIndex]!)).toContain('\uFFFD');
    }
  });

  it('cuts inside the first multi-byte character even when the random walk would not', () => {
    const text = utf8.encode('abcdefg你');
    const pieces = splitIntoWrites(text, () => 0.99); // the walk alone would cut only at 7
    expect(cutPoints(pieces)).toContain(8); // right after the lead byte of 你 (bytes 7..9)
    expect(concat(pieces)).toEqual(text);
  });

  it('is deterministic for a given random source', () => {
    expect(splitIntoWrites(frame, seededRandom(42))).toEqual(splitIntoWrites(frame, seededRandom(42)));
  });

  it('copes with empty input, a single byte and a random source that returns 1', () => {
    expect(splitIntoWrites(new Uint8Array(0), Math.random)).toEqual([]);
    expect(splitIntoWrites(new Uint8Array([65]), Math.random)).toEqual([new Uint8Array([65])]);
    const pieces = splitIntoWrites(frame, () => 1);
    expect(concat(pieces)).toEqual(frame);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(MAX_WRITE_BYTES);
  });

  it('gives each write its own buffer', () => {
    const pieces = splitIntoWrites(frame, seededRandom(3));
    expect(new Set(pieces.map((piece) => piece.buffer)).size).toBe(pieces.length);
    expect(pieces.every((piece) => piece.buffer !== frame.buffer)).toBe(true);
  });

  it('always concatenates back to the input, with every piece 1..7 bytes (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.integer(), (text, seed) => {
        const bytes = utf8.encode(text);
        const pieces = splitIntoWrites(bytes, seededRandom(seed));
        expect(concat(pieces)).toEqual(bytes);
        expect(pieces.every((piece) => piece.length >= 1 && piece.length <= MAX_WRITE_BYTES)).toBe(true);
        const hasMultiByte = bytes.some((byte) => byte >= 0x80);
        if (hasMultiByte) expect(cutPoints(pieces).some((cut) => isContinuation(bytes[cut]))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
