// MRTR's requestState travels through the client and comes back as attacker-controlled input
// (mrtr.mdx: "servers MUST treat requestState as an attacker-controlled input"; if it influences
// anything, protect its integrity and reject state that fails verification). So the server seals
// what a tool returns: HMAC-SHA256 over the method, the tool or prompt name, an expiry and the
// tool's own value, with a key that never leaves this process. A state minted for one tool is
// refused by another, an old one is refused after its expiry, an edited one is refused always.
// WebCrypto (crypto.subtle) exists in browsers, workers and Node alike, so this stays pure.

const encoder = new TextEncoder();

export interface RequestStateSealer {
  seal(binding: string, value: string): Promise<string>;
  /** The value sealed for this binding, or null when the state is forged, edited, foreign or expired. */
  open(binding: string, state: string): Promise<string | null>;
}

export interface SealerOptions {
  /** Default: 32 random bytes. Several processes serving one flow would share a key. */
  key?: Uint8Array;
  /** How long a state stays valid. Default 10 minutes. */
  ttlMs?: number;
  now?: () => number;
}

export function createRequestStateSealer(options: SealerOptions = {}): RequestStateSealer {
  const raw = options.key ?? globalThis.crypto.getRandomValues(new Uint8Array(32));
  const ttlMs = options.ttlMs ?? 600_000;
  const now = options.now ?? Date.now;
  const key = globalThis.crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);

  const mac = async (text: string) => new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', await key, encoder.encode(text)));

  return {
    async seal(binding, value) {
      const body = toBase64Url(encoder.encode(JSON.stringify({ b: binding, e: now() + ttlMs, v: value })));
      return `s1.${body}.${toBase64Url(await mac(body))}`;
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
        const payload = JSON.parse(new TextDecoder().decode(bytes)) as { b?: unknown; e?: unknown; v?: unknown };
        if (payload.b !== binding || typeof payload.e !== 'number' || payload.e < now() || typeof payload.v !== 'string') return null;
        return payload.v;
      } catch {
        return null;
      }
    },
  };
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
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
