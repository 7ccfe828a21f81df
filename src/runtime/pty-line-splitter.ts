// Reads tap events out of what a pseudo-terminal hands us. A WebContainer process has no pipes:
// its stdout and stderr reach the page merged, as strings decoded chunk by chunk, with `\r\n`
// line ends, shell escape sequences (prompts, colours, window titles) and possibly our own typed
// commands echoed back. The tap writes only ASCII lines that carry a marker, so the one robust
// reading is: cut on `\n`, scrub terminal controls, keep what parses as a tap event, drop the rest.

import { parseTapEvent, type TapEvent } from './tap-protocol.ts';

/** A tap line holds one base64 chunk; 16 Mi characters is far beyond any pipe read. */
export const DEFAULT_MAX_LINE_CHARS = 16 * 1024 * 1024;
const KEPT_NOISE_LINES = 8;
const NOISE_LINE_PREVIEW = 200;

// Order matters: string sequences (OSC "\x1b]0;title\x07", DCS …) must go whole before the generic
// two-character rule could eat just their introducer. An unterminated OSC loses only its
// introducer: guessing where it ends could swallow a tap event later on the same line.
const TERMINAL_SEQUENCES = new RegExp(
  [
    '\\x1b\\][^\\x07\\x1b]*(?:\\x07|\\x1b\\\\)', // OSC … BEL or ST
    '\\x1b[P^_X][^\\x1b]*\\x1b\\\\', // DCS, PM, APC, SOS … ST
    '(?:\\x1b\\[|\\x9b)[0-?]*[ -/]*[@-~]', // CSI, e.g. "\x1b[?2004h", "\x1b[0m"
    '\\x1b[ -/]*[0-~]', // two-character escapes, e.g. "\x1b=", "\x1b(B"
    '[\\x00-\\x1f\\x7f]', // whatever control is left: \r, BEL, a lone ESC
  ].join('|'),
  'g',
);

/** A line as a person would read it on the terminal: escape sequences and control characters gone. */
export function stripTerminalControls(line: string): string {
  return line.replace(TERMINAL_SEQUENCES, '');
}

export interface PtyLineSplitterOptions {
  /** Longer lines are dropped whole (never cut), so memory stays bounded on garbage without `\n`. */
  maxLineChars?: number;
}

export class PtyLineSplitter {
  private pending = '';
  private discarding = false;
  private readonly maxLineChars: number;
  private readonly noise: string[] = [];
  private ignored = 0;

  constructor(options: PtyLineSplitterOptions = {}) {
    this.maxLineChars = options.maxLineChars ?? DEFAULT_MAX_LINE_CHARS;
  }

  /** Take the next chunk of terminal output; return the tap events of the lines it completed. */
  push(text: string): TapEvent[] {
    const events: TapEvent[] = [];
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      this.appendToLine(text.slice(start, newline));
      this.finishLine(events);
      start = newline + 1;
    }
    this.appendToLine(text.slice(start));
    return events;
  }

  /** The output ended: a last line without `\n` still counts. */
  flush(): TapEvent[] {
    const events: TapEvent[] = [];
    this.finishLine(events);
    return events;
  }

  /** Non-blank lines that held no tap event (echo, prompts, a crash trace), for diagnostics. */
  get ignoredLines(): number {
    return this.ignored;
  }

  /**
   * The last few ignored lines, scrubbed and shortened. When the tap dies without an exit event
   * (node missing, a crash before it could report), this is the only account of what happened.
   */
  recentNoise(): string[] {
    return [...this.noise];
  }

  private appendToLine(part: string): void {
    if (this.discarding) return;
    if (this.pending.length + part.length > this.maxLineChars) {
      this.pending = '';
      this.discarding = true;
      this.remember('(an over-long line was dropped)');
      return;
    }
    this.pending += part;
  }

  private finishLine(events: TapEvent[]): void {
    const raw = this.pending;
    const wasDiscarding = this.discarding;
    this.pending = '';
    this.discarding = false;
    if (wasDiscarding) return;

    // parseTapEvent already finds its marker amid junk; scrubbing first also removes escapes that
    // a terminal may have put *inside* the line, between two writes.
    const line = stripTerminalControls(raw);
    const event = parseTapEvent(line);
    if (event) {
      events.push(event);
      return;
    }
    const readable = line.trim();
    if (readable !== '') this.remember(readable);
  }

  private remember(line: string): void {
    this.ignored++;
    this.noise.push(line.length > NOISE_LINE_PREVIEW ? `${line.slice(0, NOISE_LINE_PREVIEW)}…` : line);
    if (this.noise.length > KEPT_NOISE_LINES) this.noise.shift();
  }
}
