// The discovery half of the flow, over the client's HttpExchange: from the 401's challenge to the
// Protected Resource Metadata (RFC 9728), and from it to the authorization server's metadata
// (RFC 8414 / OpenID Connect Discovery). Each tries the URLs discovery-urls.ts gives, in order,
// and stops at the first that answers 200 with a JSON object; anything else moves to the next.

import type { HttpExchange } from '../http/types.ts';
import { AuthorizationError } from './auth-error.ts';
import { REFERENCE_STEPS, type ClientSteps } from './client-steps.ts';
import { getJson } from './json-exchange.ts';
import { resourceCovers } from './resource.ts';
import { checkAuthorizationServerMetadata, ServerMetadataError, type AuthorizationServerMetadata } from './server-metadata.ts';

export interface ProtectedResourceMetadata {
  /** Where it was found. */
  url: string;
  /** The resource identifier, exactly as the document wrote it. */
  resource: string;
  authorizationServers: string[];
  scopesSupported?: string[];
}

export interface FoundServerMetadata extends AuthorizationServerMetadata {
  /** Where it was found. */
  url: string;
}

/** The resource's metadata, checked to name `endpoint`'s resource. */
export async function discoverProtectedResource(exchange: HttpExchange, endpoint: string, fromHeader?: string, steps: Pick<ClientSteps, 'protectedResourceMetadataUrls'> = REFERENCE_STEPS): Promise<ProtectedResourceMetadata> {
  const tried: string[] = [];
  for (const url of await steps.protectedResourceMetadataUrls(endpoint, fromHeader)) {
    const answer = await getJson(exchange, url);
    if (answer.status !== 200 || !isObject(answer.json)) {
      tried.push(`${url} (${answer.status})`);
      continue;
    }
    return checkResourceMetadata(answer.json, url, endpoint);
  }
  throw new AuthorizationError('resource-metadata', `no Protected Resource Metadata at ${tried.join(', ')}`);
}

function checkResourceMetadata(document: Record<string, unknown>, url: string, endpoint: string): ProtectedResourceMetadata {
  const { resource, authorization_servers: servers, scopes_supported: scopes } = document;
  if (typeof resource !== 'string') throw new AuthorizationError('resource-metadata', `${url} has no resource`);
  if (!resourceCovers(resource, endpoint)) {
    throw new AuthorizationError('resource-metadata', `${url} names the resource ${resource}, not ${endpoint}: refused (a token for it would be for another server)`);
  }
  if (!Array.isArray(servers) || servers.length === 0 || !servers.every((item) => typeof item === 'string')) {
    throw new AuthorizationError('resource-metadata', `${url} lists no authorization_servers`);
  }
  const metadata: ProtectedResourceMetadata = { url, resource, authorizationServers: servers as string[] };
  if (Array.isArray(scopes) && scopes.every((item) => typeof item === 'string')) metadata.scopesSupported = scopes as string[];
  return metadata;
}

/** The first authorization server's metadata, checked (exact issuer, S256, http(s) endpoints). */
export async function discoverAuthorizationServer(exchange: HttpExchange, issuer: string, steps: Pick<ClientSteps, 'authorizationServerMetadataUrls'> = REFERENCE_STEPS): Promise<FoundServerMetadata> {
  const tried: string[] = [];
  for (const url of await steps.authorizationServerMetadataUrls(issuer)) {
    const answer = await getJson(exchange, url);
    if (answer.status !== 200 || !isObject(answer.json)) {
      tried.push(`${url} (${answer.status})`);
      continue;
    }
    try {
      return { ...checkAuthorizationServerMetadata(answer.json, issuer), url };
    } catch (error) {
      if (error instanceof ServerMetadataError) throw new AuthorizationError('server-metadata', `${url}: ${error.message}`);
      throw error;
    }
  }
  throw new AuthorizationError('server-metadata', `no authorization server metadata for ${issuer} at ${tried.join(', ')}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
