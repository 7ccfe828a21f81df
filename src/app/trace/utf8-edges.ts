// Whether a chunk's UTF-8 text can be decoded on its own: a chunk that starts or ends inside a
// character decodes differently alone than as part of its stream (the live panel's way).

/** True when a UTF-8 character straddles the chunk's start or end. */
export function splitsACharacter(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  return (bytes[0]! & 0xc0) === 0x80 || endsInsideACharacter(bytes);
}

/** True when the chunk's last bytes are the start of a character whose rest is still to come. */
export function endsInsideACharacter(bytes: Uint8Array): boolean {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needs > back;
  }
  return false;
}

/** True when the chunk's last three bytes (or all of a shorter chunk) are continuation bytes. */
export function endsInContinuationBytes(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  for (let back = 1; back <= Math.min(3, bytes.length); back++) if ((bytes[bytes.length - back]! & 0xc0) !== 0x80) return false;
  return true;
}
