// "The era determination is a property of the server, not of an individual request. Clients
// SHOULD cache the result for the lifetime of the server process (stdio) or origin (HTTP)"
// (basic/versioning.mdx). The dual-era client looks here before probing and writes its verdict
// back; a verdict that stops working is forgotten, so the next connect probes again.

export type EraRecord = { era: 'modern'; version: string } | { era: 'legacy' };

export interface EraCache {
  get(serverKey: string): EraRecord | undefined;
  set(serverKey: string, record: EraRecord): void;
  forget(serverKey: string): void;
}

/** The cache of one page or program run; a host may persist one of its own behind the same interface. */
export class MemoryEraCache implements EraCache {
  private readonly records = new Map<string, EraRecord>();

  get(serverKey: string): EraRecord | undefined {
    return this.records.get(serverKey);
  }

  set(serverKey: string, record: EraRecord): void {
    this.records.set(serverKey, record);
  }

  forget(serverKey: string): void {
    this.records.delete(serverKey);
  }
}

/**
 * The key for an HTTP server: its origin (scheme, host and port), which is what the spec scopes the
 * verdict to. Written by hand rather than with `URL` so the protocol layer needs nothing but the language.
 */
export function httpServerKey(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i.exec(url);
  return (match?.[1] ?? url).toLowerCase();
}
