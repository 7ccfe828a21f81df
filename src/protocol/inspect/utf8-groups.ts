// Where the multi-byte UTF-8 characters sit in a run of bytes. The byte inspector groups and
// labels them (你 = e4 bd a0) so a learner sees why a byte count and a character count differ.

/** One character that takes more than one byte. */
export interface Utf8Group {
  /** Index of the lead byte. */
  start: number;
  /** 2, 3 or 4. */
  length: number;
  char: string;
  codePoint: number;
  /** What JavaScript's string .length counts for it: 1, or 2 for a surrogate pair (emoji). */
  utf16Units: number;
}

/** Consecutive multi-byte characters, e.g. 你好: what a length header must count in bytes. */
export interface NonAsciiRun {
  start: number;
  /** Exclusive. */
  end: number;
  text: string;
  byteLength: number;
  utf16Length: number;
  characters: number;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** How many bytes a sequence starting with `lead` takes; 0 when `lead` cannot start one. */
export function utf8SequenceLength(lead: number): 0 | 1 | 2 | 3 | 4 {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

export function isContinuationByte(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/**
 * Every well-formed multi-byte character, in order. A sequence cut short (the bytes end inside a
 * character, as a chunk may) or malformed is left out: it is not a character, only bytes.
 */
export function utf8Groups(bytes: Uint8Array): Utf8Group[] {
  const groups: Utf8Group[] = [];
  let at = 0;
  while (at < bytes.length) {
    const length = utf8SequenceLength(bytes[at]!);
    if (length <= 1 || at + length > bytes.length) {
      at++;
      continue;
    }
    const char = decodeSequence(bytes.subarray(at, at + length));
    if (char === null) {
      at++;
      continue;
    }
    groups.push({ start: at, length, char, codePoint: char.codePointAt(0)!, utf16Units: char.length });
    at += length;
  }
  return groups;
}

/** The groups that follow one another with no byte between them, joined into runs. */
export function nonAsciiRuns(bytes: Uint8Array, groups: readonly Utf8Group[] = utf8Groups(bytes)): NonAsciiRun[] {
  const runs: NonAsciiRun[] = [];
  for (const group of groups) {
    const last = runs[runs.length - 1];
    if (last && last.end === group.start) {
      last.end += group.length;
      last.text += group.char;
      last.byteLength += group.length;
      last.utf16Length += group.utf16Units;
      last.characters += 1;
    } else {
      runs.push({ start: group.start, end: group.start + group.length, text: group.char, byteLength: group.length, utf16Length: group.utf16Units, characters: 1 });
    }
  }
  return runs;
}

/** For each byte index, the group it belongs to (or undefined): O(1) lookups while rendering cells. */
export function groupIndexByByte(length: number, groups: readonly Utf8Group[]): Array<Utf8Group | undefined> {
  const byByte = new Array<Utf8Group | undefined>(length).fill(undefined);
  for (const group of groups) {
    for (let i = group.start; i < group.start + group.length && i < length; i++) byByte[i] = group;
  }
  return byByte;
}

/** `U+4F60`. */
export function formatCodePoint(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

function decodeSequence(sequence: Uint8Array): string | null {
  for (let i = 1; i < sequence.length; i++) if (!isContinuationByte(sequence[i]!)) return null;
  try {
    // The strict decoder also refuses overlong forms and encoded surrogates.
    const text = strictUtf8.decode(sequence);
    return [...text].length === 1 ? text : null;
  } catch {
    return null;
  }
}
