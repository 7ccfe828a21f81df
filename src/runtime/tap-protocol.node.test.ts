import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  TapLineSplitter,
  base64ToBytes,
  bytesToBase64,
  encodeTapCommand,
  encodeTapEvent,
  looksLikeTapCommand,
  parseTapCommand,
  parseTapEvent,
  roundTapTime,
  tapEventBytes,
  type TapCommand,
  type TapEvent,
} from './tap-protocol.ts';

const ASCII_ONLY = /^[\x20-\x7e]*$/;
const utf8 = new TextEncoder();

const sampleEvents: TapEvent[] = [
  { tap: 1, ev: 'spawn', t: 0.4, pid: 123, argv: ['node', 'echo-server.mjs', '--framing=ndjson'] },
  { tap: 1, ev: 'c2s', t: 12.5, b64: bytesToBase64(utf8.encode('Content-Length: 2\r\n\r\n{}')) },
  { tap: 1, ev: 's2c', t: 13.1, b64: bytesToBase64(utf8.encode('{"text":"你好 👋"}\n')) },
  { tap: 1, ev: 'stderr', t: 13.2, b64: '' },
  { tap: 1, ev: 'exit', t: 99, code: 0, signal: null },
  { tap: 1, ev: 'exit', t: 99, code: null, signal: 'SIGTERM' },
  { tap: 1, ev: 'error', t: 1, message: 'cannot spawn nöde: 找不到 "quoted" }{' },
];

const sampleCommands: TapCommand[] = [
  { cmd: 'write', b64: bytesToBase64(utf8.encode('{"jsonrpc":"2.0"}\n')) },
  { cmd: 'eof' },
  { cmd: 'kill' },
  { cmd: 'kill', signal: 'SIGKILL' },
];

describe('base64 helpers', () => {
  it('round-trip any bytes and agree with Buffer', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const b64 = bytesToBase64(bytes);
        expect(b64).toBe(Buffer.from(bytes).toString('base64'));
        expect(base64ToBytes(b64)).toEqual(bytes);
      }),
    );
  });

  it('handle arrays larger than one slice (no call-stack overflow)', () => {
    const big = new Uint8Array(300_000).map((_, i) => (i * 31) & 0xff);
    const b64 = bytesToBase64(big);
    expect(b64).toBe(Buffer.from(big).toString('base64'));
    // Buffer.equals, not toEqual: a deep diff of 300 000 elements is slow for no gain.
    expect(Buffer.from(base64ToBytes(b64)).equals(Buffer.from(big))).toBe(true);
  });
});

describe('encodeTapEvent / parseTapEvent', () => {
  it('round-trips every kind of event', () => {
    for (const event of sampleEvents) expect(parseTapEvent(encodeTapEvent(event))).toEqual(event);
  });

  it('is one ASCII-only line whatever the bytes, and the bytes come back exact', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.constantFrom('c2s', 's2c', 'stderr') as fc.Arbitrary<'c2s' | 's2c' | 'stderr'>, (bytes, ev) => {
        const line = encodeTapEvent({ tap: 1, ev, t: 1.5, b64: bytesToBase64(bytes) });
        expect(line).toMatch(ASCII_ONLY);
        const parsed = parseTapEvent(line);
        expect(parsed?.ev).toBe(ev);
        expect(parsed && 'b64' in parsed ? tapEventBytes(parsed) : null).toEqual(bytes);
      }),
    );
  });

  it('escapes any text (CJK, emoji, lone surrogates, controls) to ASCII and restores it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.array(fc.string({ unit: 'grapheme' })), (message, argv) => {
        const errorLine = encodeTapEvent({ tap: 1, ev: 'error', t: 0, message });
        const spawnLine = encodeTapEvent({ tap: 1, ev: 'spawn', t: 0, pid: 1, argv });
        expect(errorLine).toMatch(ASCII_ONLY);
        expect(spawnLine).toMatch(ASCII_ONLY);
        expect(parseTapEvent(errorLine)).toEqual({ tap: 1, ev: 'error', t: 0, message });
        expect(parseTapEvent(spawnLine)).toEqual({ tap: 1, ev: 'spawn', t: 0, pid: 1, argv });
      }),
    );
  });

  it('finds the event inside junk: ANSI escapes, prompts, CR, trailing noise', () => {
    const event = sampleEvents[2]!;
    const line = encodeTapEvent(event);
    for (const noisy of [
      `\x1b[32m${line}\x1b[0m`,
      `~/project $ ${line}\r`,
      `\x1b[2K\x1b[1G${line}}}} trailing {"tap":2}`,
      `{"tap":1,"ev":"nonsense","t":0} ${line}`,
    ]) {
      expect(parseTapEvent(noisy)).toEqual(event);
    }
  });

  it('returns null for anything that is not an event, and never throws', () => {
    const notEvents = [
      '',
      'Content-Length: 12',
      '{"jsonrpc":"2.0","id":1,"result":{}}',
      '{"tap":2,"ev":"exit","t":0,"code":0,"signal":null}',
      '{"tap":1,"ev":"s2c","t":1}',
      '{"tap":1,"ev":"s2c","t":1,"b64":"not base64!"}',
      '{"tap":1,"ev":"s2c","t":"soon","b64":""}',
      '{"tap":1,"ev":"spawn","t":1,"pid":1.5,"argv":[]}',
      '{"tap":1,"ev":"exit","t":1,"code":"0","signal":null}',
      '{"tap":1,"ev":"c2s","t":1,"b64":"QQ==" ',
      encodeTapCommand({ cmd: 'eof' }),
    ];
    for (const line of notEvents) expect(parseTapEvent(line)).toBeNull();
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (junk) => {
        expect(() => parseTapEvent(junk)).not.toThrow();
        expect(() => parseTapEvent(`{"tap":1${junk}`)).not.toThrow();
      }),
    );
  });
});

describe('a clean line (one parse) and a line with junk (the scan) read alike', () => {
  // A leading space keeps a line off the one-parse path, so the scan reads it; the scan finds the
  // same marker, so both must agree on any line: events and commands, whole or cut, with junk.
  const pieces = fc.oneof(
    fc.constantFrom(...sampleEvents.map(encodeTapEvent), ...sampleCommands.map(encodeTapCommand)),
    fc.constantFrom('{"tap":1', '{"cmd"', '}', '{', '"', '\\', ' ', ',"b64":"QQ=="', ',"t":1'),
    // Whole JSON objects that start like an event or a command but are not valid ones.
    fc.constantFrom('{"tap":1}', '{"tap":1,"ev":"s2c","t":1,"b64":"!"}', '{"cmd":"write"}', '{"cmd":"kill","signal":"x"}'),
    fc.string({ unit: 'binary', maxLength: 12 }),
  );
  it('for events and for commands', () => {
    fc.assert(
      fc.property(fc.array(pieces, { minLength: 1, maxLength: 5 }), (parts) => {
        const line = parts.join('');
        expect(parseTapEvent(line)).toEqual(parseTapEvent(` ${line}`));
        expect(parseTapCommand(line)).toEqual(parseTapCommand(` ${line}`));
      }),
      { numRuns: 500 },
    );
  });
});

describe('encodeTapCommand / parseTapCommand', () => {
  it('round-trips every command as ASCII', () => {
    for (const command of sampleCommands) {
      const line = encodeTapCommand(command);
      expect(line).toMatch(ASCII_ONLY);
      expect(parseTapCommand(line)).toEqual(command);
    }
  });

  it('ignores echoed event lines and typing noise, but finds a command inside junk', () => {
    const event = encodeTapEvent(sampleEvents[1]!);
    expect(parseTapCommand(event)).toBeNull();
    expect(parseTapCommand('hello')).toBeNull();
    expect(parseTapCommand('^C')).toBeNull();
    expect(parseTapCommand(`\x1b[?2004h${encodeTapCommand({ cmd: 'eof' })}\x1b[0m`)).toEqual({ cmd: 'eof' });
    // The page's parser, in turn, ignores a command the terminal echoed back into the output.
    expect(parseTapEvent(encodeTapCommand(sampleCommands[0]!))).toBeNull();
  });

  it('rejects malformed commands, and flags them as command-like', () => {
    for (const line of ['{"cmd":"write"}', '{"cmd":"write","b64":"!!"}', '{"cmd":"explode"}', '{"cmd":"kill","signal":"sigterm; rm"}']) {
      expect(parseTapCommand(line)).toBeNull();
      expect(looksLikeTapCommand(line)).toBe(true);
    }
    expect(looksLikeTapCommand('just text')).toBe(false);
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (junk) => {
        expect(() => parseTapCommand(junk)).not.toThrow();
        expect(() => parseTapCommand(`{"cmd"${junk}`)).not.toThrow();
      }),
    );
  });
});

describe('TapLineSplitter', () => {
  it('splits on \\n and \\r alike, skips blanks, and keeps partial lines for the next chunk', () => {
    const splitter = new TapLineSplitter();
    expect(splitter.push('{"cmd":"eo')).toEqual([]);
    expect(splitter.push('f"}\n\n{"cmd":"kill"}\r\n\r\n  \n')).toEqual(['{"cmd":"eof"}', '{"cmd":"kill"}']);
    expect(splitter.push('tail')).toEqual([]);
    expect(splitter.flush()).toEqual(['tail']);
    expect(splitter.flush()).toEqual([]);
  });

  it('gives the same lines however the text is chunked', () => {
    const lines = sampleEvents.map(encodeTapEvent);
    const text = lines.join('\r\n') + '\n';
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 20 }), (cuts) => {
        const points = [0, ...[...cuts].sort((a, b) => a - b), text.length];
        const splitter = new TapLineSplitter();
        const seen: string[] = [];
        for (let i = 1; i < points.length; i++) seen.push(...splitter.push(text.slice(points[i - 1], points[i])));
        seen.push(...splitter.flush());
        expect(seen).toEqual(lines);
      }),
    );
  });
});

describe('roundTapTime', () => {
  it('keeps one decimal', () => {
    expect(roundTapTime(12.4567)).toBe(12.5);
    expect(roundTapTime(0.04)).toBe(0);
  });
});

describe('relayed connections in the tap protocol', () => {
  it('round-trips open, close, and c2s / s2c with a connection number', () => {
    const events: TapEvent[] = [
      { tap: 1, ev: 'open', t: 1, conn: 3 },
      { tap: 1, ev: 'c2s', t: 2, b64: 'R0VU', conn: 3 },
      { tap: 1, ev: 's2c', t: 3, b64: 'SFRUUA==', conn: 3 },
      { tap: 1, ev: 'close', t: 4, conn: 3, message: 'ECONNRESET' },
    ];
    for (const event of events) expect(parseTapEvent(encodeTapEvent(event))).toEqual(event);
  });

  it('takes connect, close and write with a connection number, and nothing about where to connect', () => {
    expect(parseTapCommand('{"cmd":"connect","conn":1,"host":"example.com","port":22}')).toEqual({ cmd: 'connect', conn: 1 });
    expect(parseTapCommand('{"cmd":"write","conn":1,"b64":"AA=="}')).toEqual({ cmd: 'write', conn: 1, b64: 'AA==' });
    expect(parseTapCommand('{"cmd":"close","conn":1}')).toEqual({ cmd: 'close', conn: 1 });
    for (const bad of ['{"cmd":"connect"}', '{"cmd":"connect","conn":-1}', '{"cmd":"connect","conn":1.5}', '{"cmd":"close","conn":"1"}', '{"cmd":"write","conn":2147483648,"b64":"AA=="}']) {
      expect(parseTapCommand(bad)).toBeNull();
    }
    expect(parseTapEvent('{"tap":1,"ev":"open","t":1}')).toBeNull();
  });
});
