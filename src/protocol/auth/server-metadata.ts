// An authorization server's metadata (RFC 8414, or OpenID Connect Discovery), checked before an
// MCP client trusts it: the `issuer` must be exactly the one the client looked up (RFC 8414 §3.3;
// otherwise another server could answer for it, a mix-up), the two endpoints it needs must be
// absolute http(s) URLs, and S256 must be among the PKCE methods — MCP: a client MUST refuse to
// go on when `code_challenge_methods_supported` is absent or lacks it. Pure: the document in, the
// fields the flow uses out, or one error that says what is wrong.

import { parseHttpUrl } from './http-url.ts';
import { PKCE_METHOD } from './pkce.ts';

export interface AuthorizationServerMetadata {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint?: string;
  scopesSupported?: string[];
  tokenEndpointAuthMethods?: string[];
  /** Client ID Metadata Documents (a URL as the client_id). */
  clientIdMetadataDocumentSupported: boolean;
  /** RFC 9207: the server puts `iss` in every authorization response, so one without it is refused. */
  issParameterSupported: boolean;
  grantTypesSupported?: string[];
  /** Where its signing keys are published: what a resource server checks a JWT access token with. */
  jwksUri?: string;
}

export class ServerMetadataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServerMetadataError';
  }
}

function httpUrl(value: unknown, field: string): string {
  parseHttpUrl(value, field, (message) => new ServerMetadataError(message));
  return value as string;
}

function stringList(value: unknown, field: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw new ServerMetadataError(`${field} must be a list of strings`);
  return value;
}

export function checkAuthorizationServerMetadata(document: unknown, expectedIssuer: string): AuthorizationServerMetadata {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw new ServerMetadataError('the metadata is not a JSON object');
  const fields = document as Record<string, unknown>;
  if (fields.issuer !== expectedIssuer) {
    throw new ServerMetadataError(`issuer is ${JSON.stringify(fields.issuer)}, not ${JSON.stringify(expectedIssuer)}, the issuer asked for: refused (a mix-up)`);
  }
  const methods = stringList(fields.code_challenge_methods_supported, 'code_challenge_methods_supported');
  if (!methods?.includes(PKCE_METHOD)) {
    throw new ServerMetadataError(`the server does not offer PKCE with ${PKCE_METHOD} (code_challenge_methods_supported: ${JSON.stringify(methods ?? null)}): refused`);
  }
  const registration = fields.registration_endpoint === undefined ? undefined : httpUrl(fields.registration_endpoint, 'registration_endpoint');
  const scopes = stringList(fields.scopes_supported, 'scopes_supported');
  const authMethods = stringList(fields.token_endpoint_auth_methods_supported, 'token_endpoint_auth_methods_supported');
  const grantTypes = stringList(fields.grant_types_supported, 'grant_types_supported');
  const jwksUri = fields.jwks_uri === undefined ? undefined : httpUrl(fields.jwks_uri, 'jwks_uri');
  return {
    issuer: expectedIssuer,
    authorizationEndpoint: httpUrl(fields.authorization_endpoint, 'authorization_endpoint'),
    tokenEndpoint: httpUrl(fields.token_endpoint, 'token_endpoint'),
    ...(registration === undefined ? {} : { registrationEndpoint: registration }),
    ...(scopes === undefined ? {} : { scopesSupported: scopes }),
    ...(authMethods === undefined ? {} : { tokenEndpointAuthMethods: authMethods }),
    ...(grantTypes === undefined ? {} : { grantTypesSupported: grantTypes }),
    ...(jwksUri === undefined ? {} : { jwksUri }),
    clientIdMetadataDocumentSupported: fields.client_id_metadata_document_supported === true,
    issParameterSupported: fields.authorization_response_iss_parameter_supported === true,
  };
}
