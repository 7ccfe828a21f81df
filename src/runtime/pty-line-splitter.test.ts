import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PtyLineSplitter, stripTerminalControls } from './pty-line-splitter.ts';
import { bytesToBase64, encodeTapCommand, encodeTapEvent, type TapEvent } from './tap-protocol.ts';

const spawn: TapEvent = { tap: 1, ev: 'spawn', t: 1.5, pid: 42, argv: ['node', 'echo-server.mjs', '--framing=ndjson'] };
const s2c: TapEvent = { tap: 1, ev: 's2c', t: 3, b64: bytesToBase64(new TextEncoder().encode('{"jsonrpc":"2.0","id":0,"result":{}}\n')) };
const stderr: TapEvent = { tap: 1, ev: 'stderr', t: 3.1, b64: bytesToBase64(new TextEncoder().encode('[echo-server] 你好\n')) };
const exit: TapEvent = { tap: 1, ev: 'exit', t: 9, code: 0, signal: null };
const EVENTS = [spawn, s2c, stderr, exit];

/** What a pseudo-terminal makes of the tap's output: CRLF line ends. */
function terminalText(events: readonly TapEvent[]): string {
  return events.map((event) => `${encodeTapEvent(event)}\r\n`).join('');
}

describe('PtyLineSplitter', () => {
  it('reads events from CRLF-terminated lines', () => {
    const splitter = new PtyLineSplitter();
    expect(splitter.push(terminalText(EVENTS))).toEqual(EVENTS);
    expect(splitter.flush()).toEqual([]);
  });

  it('keeps a partial line until its newline arrives', () => {
    const splitter = new PtyLineSplitter();
    const text = terminalText([s2c]);
    expect(splitter.push(text.slice(0, 20))).toEqual([]);
    expect(splitter.push(text.slice(20, -1))).toEqual([]); // everything but the final \n
    expect(splitter.push(text.slice(-1))).toEqual([s2c]);
  });

  it('reads a last line that never got its newline on flush', () => {
    const splitter = new PtyLineSplitter();
    expect(splitter.push(encodeTapEvent(exit))).toEqual([]);
    expect(splitter.flush()).toEqual([exit]);
    expect(splitter.flush()).toEqual([]);
  });

  it('strips prompts, colours and titles around and inside a line', () => {
    const splitter = new PtyLineSplitter();
    const line = encodeTapEvent(s2c);
    const text = [
      '\x1b[?2004h\x1b]0;~/project\x07',
      `\x1b[32m${line.slice(0, 30)}\x1b[0m${line.slice(30)}\x1b[K\r\n`,
      `\x1b[?2004l\x1b(B\x1b=${encodeTapEvent(exit)}\r\n`,
    ].join('');
    expect(splitter.push(text)).toEqual([s2c, exit]);
  });

  it('survives an escape sequence cut in half between chunks', () => {
    const splitter = new PtyLineSplitter();
    expect(splitter.push(`\x1b[?20`)).toEqual([]);
    expect(splitter.push(`04h${encodeTapEvent(spawn)}\r\n`)).toEqual([spawn]);
  });

  it('ignores echoed commands, shell noise and blank lines, and remembers the noise', () => {
    const splitter = new PtyLineSplitter();
    const echoed = encodeTapCommand({ cmd: 'write', b64: 'aGk=' });
    const text = `${echoed}\r\n\r\n\n~/project $ node tap.mjs\r\n${encodeTapEvent(spawn)}\r\nError: boom\r\n`;
    expect(splitter.push(text)).toEqual([spawn]);
    expect(splitter.ignoredLines).toBe(3);
    expect(splitter.recentNoise()).toEqual([echoed, '~/project $ node tap.mjs', 'Error: boom']);
  });

  it('does not let an unterminated window-title sequence swallow the event after it', () => {
    const splitter = new PtyLineSplitter();
    expect(splitter.push(`\x1b]0;title${encodeTapEvent(spawn)}\n`)).toEqual([spawn]);
  });

  it('drops an over-long line whole and reads the next one', () => {
    const splitter = new PtyLineSplitter({ maxLineChars: 100 });
    expect(splitter.push('x'.repeat(60))).toEqual([]);
    expect(splitter.push('y'.repeat(60))).toEqual([]);
    expect(splitter.push(`tail\n${encodeTapEvent(exit).slice(0, 10)}`)).toEqual([]);
    expect(splitter.push(`${encodeTapEvent(exit).slice(10)}\n`)).toEqual([exit]);
    expect(splitter.recentNoise()).toEqual(['(an over-long line was dropped)']);
  });

  it('finds the same events however the text is cut into chunks (property)', () => {
    const text = `\x1b[?2004h${terminalText(EVENTS)}noise\r\n${encodeTapCommand({ cmd: 'eof' })}\r\n`;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 30 }), (cuts) => {
        const points = [0, ...[...cuts].sort((a, b) => a - b), text.length];
        const splitter = new PtyLineSplitter();
        const events: TapEvent[] = [];
        for (let i = 1; i < points.length; i++) events.push(...splitter.push(text.slice(points[i - 1], points[i])));
        events.push(...splitter.flush());
        expect(events).toEqual(EVENTS);
      }),
    );
  });

  it('never throws on garbage, and garbage never yields an event (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 20 }), (chunks) => {
        const splitter = new PtyLineSplitter();
        const events = chunks.flatMap((chunk) => splitter.push(chunk));
        events.push(...splitter.flush());
        // Random text essentially never forms `{"tap":1,...}` with valid fields.
        expect(events).toEqual([]);
      }),
    );
  });
});

describe('stripTerminalControls', () => {
  it('removes CSI, OSC, two-character escapes and stray controls, keeping text', () => {
    expect(stripTerminalControls('\x1b[1;31mred\x1b[0m \x1b]2;t\x1b\\ok\r\x07\x1b>')).toBe('red ok');
  });

  it('leaves JSON with escaped control characters alone', () => {
    const line = encodeTapEvent({ tap: 1, ev: 'error', t: 1, message: 'bell \x07 and esc \x1b[0m' });
    expect(stripTerminalControls(line)).toBe(line);
  });
});
