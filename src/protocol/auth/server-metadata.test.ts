import { describe, expect, it } from 'vitest';
import { checkAuthorizationServerMetadata, ServerMetadataError } from './server-metadata.ts';

const ISSUER = 'https://auth.example.com/tenant1';
const good = {
  issuer: ISSUER,
  authorization_endpoint: 'https://auth.example.com/tenant1/authorize',
  token_endpoint: 'https://auth.example.com/tenant1/token',
  registration_endpoint: 'https://auth.example.com/tenant1/register',
  code_challenge_methods_supported: ['plain', 'S256'],
  scopes_supported: ['files:read'],
  token_endpoint_auth_methods_supported: ['none', 'client_secret_basic'],
  client_id_metadata_document_supported: true,
  authorization_response_iss_parameter_supported: true,
  grant_types_supported: ['authorization_code', 'refresh_token'],
};

describe('checkAuthorizationServerMetadata', () => {
  it('gives the fields the flow uses', () => {
    expect(checkAuthorizationServerMetadata(good, ISSUER)).toEqual({
      issuer: ISSUER,
      authorizationEndpoint: good.authorization_endpoint,
      tokenEndpoint: good.token_endpoint,
      registrationEndpoint: good.registration_endpoint,
      scopesSupported: ['files:read'],
      tokenEndpointAuthMethods: ['none', 'client_secret_basic'],
      grantTypesSupported: ['authorization_code', 'refresh_token'],
      clientIdMetadataDocumentSupported: true,
      issParameterSupported: true,
    });
  });

  it.each([
    ['another issuer (a mix-up)', { ...good, issuer: 'https://evil.example.com' }, 'issuer is "https://evil.example.com", not "https://auth.example.com/tenant1", the issuer asked for: refused (a mix-up)'],
    ['the issuer with a trailing slash (must be identical)', { ...good, issuer: `${ISSUER}/` }, /^issuer is /],
    ['no PKCE methods', { ...good, code_challenge_methods_supported: undefined }, 'the server does not offer PKCE with S256 (code_challenge_methods_supported: null): refused'],
    ['plain PKCE only', { ...good, code_challenge_methods_supported: ['plain'] }, 'the server does not offer PKCE with S256 (code_challenge_methods_supported: ["plain"]): refused'],
    ['no token endpoint', { ...good, token_endpoint: undefined }, 'token_endpoint is missing or not a string'],
    ['a relative endpoint', { ...good, authorization_endpoint: '/authorize' }, 'authorization_endpoint is not an absolute URL: "/authorize"'],
    ['a non-http endpoint', { ...good, registration_endpoint: 'javascript:alert(1)' }, 'registration_endpoint must be http or https, not javascript:'],
    ['scopes that are not strings', { ...good, scopes_supported: [1] }, 'scopes_supported must be a list of strings'],
    ['not an object', ['issuer'], 'the metadata is not a JSON object'],
  ])('refuses %s', (_, document, message) => {
    expect(() => checkAuthorizationServerMetadata(document, ISSUER)).toThrow(ServerMetadataError);
    expect(() => checkAuthorizationServerMetadata(document, ISSUER)).toThrow(message);
  });

  it('reads a missing client_id_metadata_document_supported or authorization_response_iss_parameter_supported as false', () => {
    const { client_id_metadata_document_supported: _, registration_endpoint: __, authorization_response_iss_parameter_supported: ___, ...plain } = good;
    expect(checkAuthorizationServerMetadata(plain, ISSUER)).toMatchObject({ clientIdMetadataDocumentSupported: false, issParameterSupported: false });
    expect(checkAuthorizationServerMetadata(plain, ISSUER)).not.toHaveProperty('registrationEndpoint');
  });
});
