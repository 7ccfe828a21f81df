// The header rules of Streamable HTTP (2025-11-25, basic/transports), each a small pure check so
// the handler reads as the list of rules it enforces.

import { SUPPORTED_PROTOCOL_VERSIONS } from '../mcp.ts';
import { headerValue, type HttpHeaders } from './types.ts';

/** The media types an Accept header lists, lower-case, parameters dropped. */
export function acceptedTypes(headers: HttpHeaders): Set<string> {
  const accept = headerValue(headers, 'accept') ?? '';
  return new Set(
    accept
      .split(',')
      .map((part) => part.split(';')[0]!.trim().toLowerCase())
      .filter((type) => type !== ''),
  );
}

/** POST: the client MUST list both; GET: it MUST list text/event-stream. */
export function acceptsPost(headers: HttpHeaders): boolean {
  const types = acceptedTypes(headers);
  return types.has('application/json') && types.has('text/event-stream');
}

export function acceptsEventStream(headers: HttpHeaders): boolean {
  return acceptedTypes(headers).has('text/event-stream');
}

/** The body is JSON (parameters such as charset allowed). */
export function isJsonContentType(headers: HttpHeaders): boolean {
  const type = headerValue(headers, 'content-type')?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

/** The host name of a Host header or an origin, lower-case, without port; IPv6 keeps its brackets. */
export function hostName(hostAndPort: string): string {
  const value = hostAndPort.trim().toLowerCase();
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    return close === -1 ? value : value.slice(0, close + 1);
  }
  const colon = value.indexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

/** The names a loopback server answers to. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * DNS rebinding protection. A page from evil.example whose name the attacker points at 127.0.0.1
 * reaches a local server with `Host: evil.example` (and `Origin: http://evil.example`): only a
 * request naming one of the server's own names is ours. The port does not matter to that attack,
 * so names are compared without it. A request without Host (HTTP/1.0) is refused too.
 */
export function isAllowedHost(headers: HttpHeaders, allowedHosts: readonly string[]): boolean {
  const host = headerValue(headers, 'host');
  return host !== undefined && allowedHosts.includes(hostName(host));
}

/**
 * Origin (sent by browsers): absent is fine (not a browser); present, it must be an allowed origin
 * exactly, or (unless `anyOnAllowedHost` is false) an http(s) origin on one of the server's own
 * host names, whatever its port. "null" (sandboxed frames, file pages) is refused. A server on a
 * real loopback port turns the port-less rule off: another local app's page (http://localhost:3000)
 * is a foreign origin to it.
 */
export function isAllowedOrigin(headers: HttpHeaders, allowedHosts: readonly string[], allowedOrigins: readonly string[], anyOnAllowedHost = true): boolean {
  const origin = headerValue(headers, 'origin');
  if (origin === undefined) return true;
  if (allowedOrigins.includes(origin)) return true;
  if (!anyOnAllowedHost) return false;
  const match = /^https?:\/\/([^/]+)$/i.exec(origin.trim());
  return match !== null && allowedHosts.includes(hostName(match[1]!));
}

/** MCP-Protocol-Version: absent is allowed (the session's negotiated version applies); present, it must be one we speak. */
export function protocolVersionProblem(headers: HttpHeaders): string | null {
  const version = headerValue(headers, 'mcp-protocol-version');
  if (version === undefined) return null;
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version)
    ? null
    : `Unsupported MCP-Protocol-Version ${JSON.stringify(version)}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`;
}

/** Visible ASCII only (0x21-0x7E), as the specification requires of a session id. */
export function isValidSessionId(id: string): boolean {
  return /^[\x21-\x7e]+$/.test(id);
}

/** A new session id: 128 random bits from the platform's cryptographic generator, as hex. */
export function newSessionId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  let id = '';
  for (const byte of bytes) id += byte.toString(16).padStart(2, '0');
  return id;
}
