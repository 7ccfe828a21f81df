// The hex view's grid, hexyl-style: an offset column, 16 bytes a row split 8 + 8, and a text
// column where printable ASCII shows as itself, a multi-byte character shows once on its lead
// byte, and every other byte shows as '.'.

import { bytesToBase64 } from '../base64.ts';
import { groupIndexByByte, type Utf8Group } from './utf8-groups.ts';

export const BYTES_PER_ROW = 16;
export const HALF_ROW = BYTES_PER_ROW / 2;
/** The text column shows this for a byte that is neither printable ASCII nor part of a character. */
export const UNPRINTABLE = '.';

export interface HexRow {
  /** Index of the row's first byte. */
  offset: number;
  /** Exclusive. */
  end: number;
}

export function hexRows(length: number, bytesPerRow = BYTES_PER_ROW): HexRow[] {
  const rows: HexRow[] = [];
  for (let offset = 0; offset < length; offset += bytesPerRow) rows.push({ offset, end: Math.min(offset + bytesPerRow, length) });
  return rows;
}

/** Two lowercase hex digits. */
export function hexByte(byte: number): string {
  return byte.toString(16).padStart(2, '0');
}

/** The offset column, in hex, wide enough for the last offset (at least 4 digits, as hexdump). */
export function formatOffset(offset: number, totalLength: number): string {
  const width = Math.max(4, Math.max(totalLength - 1, 0).toString(16).length);
  return offset.toString(16).padStart(width, '0');
}

export function isPrintableAscii(byte: number): boolean {
  return byte >= 0x20 && byte <= 0x7e;
}

export type TextCellKind = 'ascii' | 'char-lead' | 'char-tail' | 'unprintable';

export interface TextCell {
  kind: TextCellKind;
  /** What the text column shows for this byte. */
  text: string;
}

/**
 * One text-column cell per byte. A multi-byte character is drawn on its lead byte and its other
 * bytes stay blank (the glyph is wider than one cell anyway); the grouping brackets show they belong.
 */
export function textCells(bytes: Uint8Array, groups: readonly Utf8Group[]): TextCell[] {
  const byByte = groupIndexByByte(bytes.length, groups);
  const cells: TextCell[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    const group = byByte[i];
    if (group) cells.push(group.start === i ? { kind: 'char-lead', text: group.char } : { kind: 'char-tail', text: '' });
    else if (isPrintableAscii(byte)) cells.push({ kind: 'ascii', text: String.fromCharCode(byte) });
    else cells.push({ kind: 'unprintable', text: UNPRINTABLE });
  }
  return cells;
}

export type CopyFormat = 'hex' | 'base64' | 'text';
export const COPY_FORMATS: readonly CopyFormat[] = ['hex', 'base64', 'text'];

/** The bytes as `e4 bd a0 …`, `5L2g…` or decoded UTF-8 text (a broken sequence becomes U+FFFD). */
export function formatBytes(bytes: Uint8Array, format: CopyFormat): string {
  switch (format) {
    case 'hex':
      return Array.from(bytes, hexByte).join(' ');
    case 'base64':
      return bytesToBase64(bytes);
    case 'text':
      return new TextDecoder().decode(bytes);
  }
}
