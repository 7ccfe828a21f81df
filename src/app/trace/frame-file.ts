// The byte inspector's frame as a file: binary (the bytes themselves) or hex (16 bytes a line,
// lower case, what `xxd -r -p` turns back into the binary).

import { hexByte } from '../../protocol/inspect/hex-rows.ts';

export type FrameFileFormat = 'hex' | 'binary';
export const FRAME_FILE_FORMATS: readonly FrameFileFormat[] = ['hex', 'binary'];

export interface FrameFile {
  name: string;
  type: string;
  data: Uint8Array | string;
}

export function frameHex(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let i = 0; i < bytes.length; i += 16) lines.push(Array.from(bytes.subarray(i, i + 16), hexByte).join(' '));
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** `frame-c2s-120.bin`: the direction and where the frame starts in its stream. */
export function frameFile(bytes: Uint8Array, format: FrameFileFormat, direction: string, streamOffset: number): FrameFile {
  const base = `frame-${direction}-${streamOffset}`;
  return format === 'hex'
    ? { name: `${base}.hex`, type: 'text/plain', data: frameHex(bytes) }
    : { name: `${base}.bin`, type: 'application/octet-stream', data: bytes };
}
