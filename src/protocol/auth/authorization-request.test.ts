import { describe, expect, it } from 'vitest';
import { AuthorizationError } from './auth-error.ts';
import { authorizationUrl, codeFromRedirect } from './authorization-request.ts';
import type { AuthorizationServerMetadata } from './server-metadata.ts';

const server: AuthorizationServerMetadata = {
  issuer: 'https://auth.example.com',
  authorizationEndpoint: 'https://auth.example.com/authorize?tenant=1',
  tokenEndpoint: 'https://auth.example.com/token',
  clientIdMetadataDocumentSupported: false,
  issParameterSupported: true,
};
const REDIRECT = 'http://127.0.0.1:8976/callback';

describe('authorizationUrl', () => {
  it('carries PKCE S256, state, the resource exactly as given, and the scope; keeps the endpoint query', () => {
    const url = new URL(authorizationUrl(server, { clientId: 'c 1', redirectUri: REDIRECT, codeChallenge: 'abc', state: 's', resource: 'http://localhost:3000', scope: 'a b' }));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      tenant: '1',
      response_type: 'code',
      client_id: 'c 1',
      redirect_uri: REDIRECT,
      code_challenge: 'abc',
      code_challenge_method: 'S256',
      state: 's',
      resource: 'http://localhost:3000',
      scope: 'a b',
    });
  });

  it('asks for consent with offline_access, and only then (OpenID Connect lets a server drop it otherwise)', () => {
    const query = (scope: string) => new URL(authorizationUrl(server, { clientId: 'c', redirectUri: REDIRECT, codeChallenge: 'x', state: 's', resource: 'r:x', scope })).searchParams;
    expect(query('tools:read offline_access').get('prompt')).toBe('consent');
    expect(query('tools:read offline_accessx').has('prompt')).toBe(false);
  });

  it('leaves scope out when there is none', () => {
    expect(new URL(authorizationUrl(server, { clientId: 'c', redirectUri: REDIRECT, codeChallenge: 'x', state: 's', resource: 'r:x' })).searchParams.has('scope')).toBe(false);
  });
});

describe('codeFromRedirect', () => {
  const back = (query: string) => `${REDIRECT}?${query}`;
  const iss = `iss=${encodeURIComponent(server.issuer)}`;

  it('gives the code when state and iss are right', () => {
    expect(codeFromRedirect(back(`code=abc&state=s1&${iss}`), { state: 's1', server })).toBe('abc');
    // A server that does not promise iss may leave it out.
    expect(codeFromRedirect(back('code=abc&state=s1'), { state: 's1', server: { ...server, issParameterSupported: false } })).toBe('abc');
  });

  it.each([
    ['another state', back(`code=abc&state=s2&${iss}`), 'does not carry the state'],
    ['no state', back(`code=abc&${iss}`), 'does not carry the state'],
    ['an iss from another server (a mix-up)', back('code=abc&state=s1&iss=https%3A%2F%2Fevil.example.com'), 'comes from https://evil.example.com'],
    ['an iss with a trailing slash', back(`code=abc&state=s1&iss=${encodeURIComponent(`${server.issuer}/`)}`), 'comes from https://auth.example.com/'],
    ['no iss from a server that promised it', back('code=abc&state=s1'), 'this redirect has none'],
    ['an error', back(`error=access_denied&error_description=no&state=s1&${iss}`), 'said access_denied (no)'],
    ['no code', back(`state=s1&${iss}`), 'carries no code'],
    ['not a URL', 'nonsense', 'not a URL'],
  ])('refuses %s', (_, redirect, message) => {
    expect(() => codeFromRedirect(redirect, { state: 's1', server })).toThrow(AuthorizationError);
    expect(() => codeFromRedirect(redirect, { state: 's1', server })).toThrow(message);
  });

  it('refuses an unexpected iss even from a server that did not promise one', () => {
    expect(() => codeFromRedirect(back('code=abc&state=s1&iss=https%3A%2F%2Fevil.example.com'), { state: 's1', server: { ...server, issParameterSupported: false } })).toThrow('mix-up');
  });
});
