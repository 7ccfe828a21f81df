// MRTR's requestState travels through the client and comes back as attacker-controlled input
// (mrtr.mdx: "servers MUST treat requestState as an attacker-controlled input"; if it influences
// anything, protect its integrity and reject state that fails verification). So the server seals
// what a tool returns: HMAC-SHA256 over the binding (the method, the tool or prompt name and a
// SHA-256 digest of its arguments: argumentsDigest), an expiry, a random nonce and the tool's own
// value, with a key that never leaves this process. A state minted for one tool, or for the same
// tool with other arguments, is refused; an old one is refused after its expiry, an edited one
// always; and each state opens ONCE: its nonce goes into a used set, so a replayed state (the
// same retry sent again, by the client or by whoever saw it) is refused. The used set forgets a
// nonce once its state has expired; if it ever holds more than maxUsed, the earliest-expiring go
// first and every state expiring by then is refused from then on, so forgetting never reopens one.
// WebCrypto (crypto.subtle) exists in browsers, workers and Node alike, so this stays pure.

import { bytesToBase64Url } from '../base64.ts';

const encoder = new TextEncoder();

export interface RequestStateSealer {
  seal(binding: string, value: string): Promise<string>;
  /** The value sealed for this binding, or null when the state is forged, edited, foreign, expired or already used. */
  open(binding: string, state: string): Promise<string | null>;
}

export interface SealerOptions {
  /** Default: 32 random bytes. Several processes serving one flow would share a key. */
  key?: Uint8Array;
  /** How long a state stays valid. Default 10 minutes. */
  ttlMs?: number;
  now?: () => number;
  /** Most nonces remembered as used before the earliest-expiring are dropped (see above). Default 100,000. */
  maxUsed?: number;
}

export function createRequestStateSealer(options: SealerOptions = {}): RequestStateSealer {
  const raw = options.key ?? globalThis.crypto.getRandomValues(new Uint8Array(32));
  const ttlMs = options.ttlMs ?? 600_000;
  const now = options.now ?? Date.now;
  const maxUsed = options.maxUsed ?? 100_000;
  /** Nonce -> the expiry of its state: used once, refused after. */
  const used = new Map<string, number>();
  /** States expiring at or before this were forgotten from `used` early: refused whatever their nonce. */
  let forgottenUpTo = -Infinity;
  const key = globalThis.crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);

  const mac = async (text: string) => new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', await key, encoder.encode(text)));

  function forgetSome(): void {
    const time = now();
    for (const [nonce, expiry] of used) if (expiry < time) used.delete(nonce);
    if (used.size <= maxUsed) return;
    // Still full of live states: drop the earliest-expiring tenth, and refuse everything up to them.
    const byExpiry = [...used].sort((a, b) => a[1] - b[1]);
    for (const [nonce, expiry] of byExpiry.slice(0, Math.max(1, Math.ceil(used.size / 10)))) {
      used.delete(nonce);
      forgottenUpTo = Math.max(forgottenUpTo, expiry);
    }
  }

  return {
    async seal(binding, value) {
      const nonce = bytesToBase64Url(globalThis.crypto.getRandomValues(new Uint8Array(16)));
      const body = bytesToBase64Url(encoder.encode(JSON.stringify({ b: binding, e: now() + ttlMs, n: nonce, v: value })));
      return `s1.${body}.${bytesToBase64Url(await mac(body))}`;
    },
    async open(binding, state) {
      const parts = state.split('.');
      if (parts.length !== 3 || parts[0] !== 's1') return null;
      const [, body, signature] = parts as [string, string, string];
      const given = fromBase64Url(signature);
      if (given === null) return null;
      const valid = await globalThis.crypto.subtle.verify('HMAC', await key, given as Uint8Array<ArrayBuffer>, encoder.encode(body));
      if (!valid) return null;
      const bytes = fromBase64Url(body);
      if (bytes === null) return null;
      try {
        const payload = JSON.parse(new TextDecoder().decode(bytes)) as { b?: unknown; e?: unknown; n?: unknown; v?: unknown };
        if (payload.b !== binding || typeof payload.e !== 'number' || payload.e < now() || typeof payload.n !== 'string' || typeof payload.v !== 'string') return null;
        // Checked and marked in one synchronous step (after the await above): two concurrent
        // retries with one state cannot both pass.
        if (payload.e <= forgottenUpTo || used.has(payload.n)) return null;
        used.set(payload.n, payload.e);
        if (used.size > maxUsed) forgetSome();
        return payload.v;
      } catch {
        return null;
      }
    },
  };
}

/**
 * The SHA-256 of a value's canonical JSON (object keys sorted at every level), base64url: what a
 * state is bound to besides the tool, so a retry with other arguments cannot reuse it.
 */
export async function argumentsDigest(value: unknown): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(canonicalJson(value)));
  return bytesToBase64Url(new Uint8Array(digest));
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  try {
    const binary = atob(padded);
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}
