// Which resource a token is for (RFC 8707, RFC 9728 §3.3). The Protected Resource Metadata names
// the resource in `resource`; the client checks that it is the server it is talking to — the same
// origin, and the MCP endpoint at or under the resource's path — before it asks any authorization
// server for a token. A document that names another resource is refused: a token obtained for
// it would be a token for someone else (the conformance suite's `resource-mismatch`).
//
// The `resource` parameter of the authorization and token requests is then that identifier
// exactly as the metadata wrote it: `http://host:1234` stays without the "/" a URL parser adds.

/** Whether `resource` (from the metadata) covers `endpoint` (the URL the client called). */
export function resourceCovers(resource: string, endpoint: string): boolean {
  let named: URL;
  let called: URL;
  try {
    named = new URL(resource);
    called = new URL(endpoint);
  } catch {
    return false;
  }
  if (named.hash !== '' || named.origin !== called.origin) return false;
  const base = named.pathname;
  if (base === '/' || base === called.pathname) return true;
  return called.pathname.startsWith(base.endsWith('/') ? base : `${base}/`);
}
