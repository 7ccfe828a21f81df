// Base64 over Uint8Array, without Buffer: the tap's lines carry bytes this way, and the byte
// inspector copies frames as base64. Pure, so the page, the workers and Node share it.

// String.fromCharCode(...bytes) overflows the call stack on large arrays; 32 KiB slices stay well
// inside every engine's argument limit.
const BASE64_SLICE = 0x8000;

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += BASE64_SLICE) {
    binary += String.fromCharCode(...bytes.subarray(i, i + BASE64_SLICE));
  }
  return btoa(binary);
}

/** Decode base64; throws on text that is not base64 (callers check first). */
export function base64ToBytes(b64: string): Uint8Array {
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
