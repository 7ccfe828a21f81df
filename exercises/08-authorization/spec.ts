import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PROPERTY_TEST, propertyPacer } from '@protocol/property-runs';
import {
  authorizationServerMetadataUrls,
  authorizationUrl,
  basicCredentials,
  codeChallengeS256,
  codeFromRedirect,
  createCodeVerifier,
  isCodeVerifier,
  protectedResourceMetadataUrls,
  tokenRequestForm,
  type Grant,
} from '@learner';
// The reference solution: the properties compare your code with it.
import * as reference from '@reference/auth/authorization-client';
import { AuthorizationError } from '@protocol/auth/auth-error';
import type { ClientIdentity } from '@protocol/auth/client-identity';
import type { AuthorizationServerMetadata } from '@protocol/auth/server-metadata';

const RUNS = { numRuns: 100, seed: 8 };

/** What a call did, without its wording: its value, or that it threw and which kind of error. */
async function outcome(run: () => unknown): Promise<unknown> {
  try {
    return { value: await run() };
  } catch (error) {
    return { threw: error instanceof AuthorizationError ? 'AuthorizationError' : error instanceof RangeError ? 'RangeError' : 'Error' };
  }
}

async function sameAsReference<T>(inputs: fc.Arbitrary<T>, theirs: (input: T) => unknown, yours: (input: T) => unknown): Promise<void> {
  // A fixed number of runs, with a turn of the event loop every few (see property-runs.ts).
  const pace = propertyPacer();
  const details = await fc.check(
    fc.asyncProperty(inputs, async (input) => {
      await pace();
      expect(await outcome(() => yours(input))).toEqual(await outcome(() => theirs(input)));
    }),
    RUNS,
  );
  if (!details.failed || !details.counterexample) return;
  const [input] = details.counterexample;
  expect(await outcome(() => yours(input)), `for ${JSON.stringify(input)}`).toEqual(await outcome(() => theirs(input)));
  throw new Error(`differs from the reference for ${JSON.stringify(input)} (only on some runs)`);
}

const SERVER: AuthorizationServerMetadata = {
  issuer: 'https://auth.example.com',
  authorizationEndpoint: 'https://auth.example.com/authorize?tenant=1',
  tokenEndpoint: 'https://auth.example.com/token',
  clientIdMetadataDocumentSupported: false,
  issParameterSupported: true,
};
const REDIRECT = 'http://127.0.0.1:8976/callback';
const expectAuthorizationError = (run: () => unknown) => expect(run).toThrow(AuthorizationError);

// ---- generators ----

const host = fc.constantFrom('api.example.com', 'localhost:3000', '127.0.0.1:8080', 'mcp.example.org');
const segment = fc.constantFrom('mcp', 'tenant', 'v1', 'a-b', '%E4%BD%A0');
const path = fc.array(segment, { maxLength: 3 }).chain((parts) => fc.constantFrom('', '/').map((end) => `/${parts.join('/')}${parts.length > 0 ? end : ''}`));
const anyHttpUrl = fc
  .record({ scheme: fc.constantFrom('http', 'https'), host, path, query: fc.constantFrom('', '?x=1'), hash: fc.constantFrom('', '#top') })
  .map(({ scheme, host: name, path: p, query, hash }) => `${scheme}://${name}${p}${query}${hash}`);
const notHttpUrl = fc.constantFrom('ftp://api.example.com/mcp', 'not a url', '/mcp', 'javascript:alert(1)', 'file:///etc/passwd', '');
const verifierChar = fc.constantFrom(...'ABCXYZabcxyz0189-._~'.split(''));
const anyVerifier = fc.array(verifierChar, { minLength: 43, maxLength: 128 }).map((chars) => chars.join(''));
const nearVerifier = fc.oneof(
  fc.array(verifierChar, { minLength: 0, maxLength: 42 }).map((chars) => chars.join('')),
  fc.array(verifierChar, { minLength: 129, maxLength: 140 }).map((chars) => chars.join('')),
  fc.tuple(anyVerifier, fc.constantFrom(' ', '+', '/', '=', 'é', '%')).map(([text, bad]) => `${text.slice(0, 60)}${bad}`),
);
const scope = fc.option(fc.constantFrom('tools:read', 'tools:read tools:write', 'tools:read offline_access', 'offline_access', 'a b c'), { nil: undefined });

// ---- 1. discovery ----

describe('Discovery', () => {
  it("uses the challenge's resource_metadata alone when the server names it", () => {
    expect(protectedResourceMetadataUrls('https://api.example.com/mcp', 'https://api.example.com/meta.json')).toEqual(['https://api.example.com/meta.json']);
  });

  it("inserts the well-known name between the host and the endpoint's path, then tries the root", () => {
    expect(protectedResourceMetadataUrls('https://api.example.com/tenant/mcp')).toEqual([
      'https://api.example.com/.well-known/oauth-protected-resource/tenant/mcp',
      'https://api.example.com/.well-known/oauth-protected-resource',
    ]);
  });

  it('a root endpoint has one URL; a trailing slash, a query and a fragment never go along', () => {
    expect(protectedResourceMetadataUrls('https://api.example.com/')).toEqual(['https://api.example.com/.well-known/oauth-protected-resource']);
    expect(protectedResourceMetadataUrls('http://localhost:3000/mcp/?x=1#top')).toEqual([
      'http://localhost:3000/.well-known/oauth-protected-resource/mcp',
      'http://localhost:3000/.well-known/oauth-protected-resource',
    ]);
  });

  it('an issuer with a path: both well-known names inserted, then OpenID\'s appended', () => {
    expect(authorizationServerMetadataUrls('https://auth.example.com/tenant1')).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ]);
  });

  it('an issuer without a path: the two root forms, OAuth first', () => {
    expect(authorizationServerMetadataUrls('https://auth.example.com')).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server',
      'https://auth.example.com/.well-known/openid-configuration',
    ]);
  });

  it('refuses what is not an absolute http(s) URL, never guessing', () => {
    for (const bad of ['ftp://api.example.com/mcp', 'not a url', '/mcp']) {
      expect(() => protectedResourceMetadataUrls(bad)).toThrow();
      expect(() => authorizationServerMetadataUrls(bad)).toThrow();
    }
    expect(() => protectedResourceMetadataUrls('https://api.example.com/mcp', 'javascript:alert(1)')).toThrow();
  });

  it('for any endpoint, challenge and issuer: the same URLs, in the same order, as the reference', PROPERTY_TEST, async () => {
    const endpointOrBad = fc.oneof({ weight: 4, arbitrary: anyHttpUrl }, { weight: 1, arbitrary: notHttpUrl });
    await sameAsReference(
      fc.record({ endpoint: endpointOrBad, fromHeader: fc.option(endpointOrBad, { nil: undefined }), issuer: endpointOrBad }),
      ({ endpoint, fromHeader, issuer }) => [reference.protectedResourceMetadataUrls(endpoint, fromHeader), reference.authorizationServerMetadataUrls(issuer)],
      ({ endpoint, fromHeader, issuer }) => [protectedResourceMetadataUrls(endpoint, fromHeader), authorizationServerMetadataUrls(issuer)],
    );
  });
});

// ---- 2. PKCE ----

describe('PKCE', () => {
  it("gives RFC 7636 Appendix B's challenge for its verifier", async () => {
    await expect(codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).resolves.toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('a challenge is 43 base64url characters: no padding, no + or /', async () => {
    const challenge = await codeChallengeS256('~'.repeat(128));
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('createCodeVerifier asks for 32 bytes and encodes them as base64url without padding', () => {
    const asked: number[] = [];
    const verifier = createCodeVerifier((length) => {
      asked.push(length);
      return Uint8Array.from({ length }, (_, index) => 250 + (index % 6));
    });
    expect(asked).toEqual([32]);
    expect(verifier).toBe('-vv8_f7_-vv8_f7_-vv8_f7_-vv8_f7_-vv8_f7_-vs');
  });

  it('isCodeVerifier: 43 to 128 unreserved characters, nothing else', () => {
    expect(isCodeVerifier('a'.repeat(43))).toBe(true);
    expect(isCodeVerifier('A-._~9'.repeat(21) + 'xy')).toBe(true);
    expect(isCodeVerifier('a'.repeat(42))).toBe(false);
    expect(isCodeVerifier('a'.repeat(129))).toBe(false);
    expect(isCodeVerifier(`${'a'.repeat(42)}+`)).toBe(false);
    expect(isCodeVerifier(`${'a'.repeat(42)}=`)).toBe(false);
    expect(isCodeVerifier(`${'a'.repeat(42)} `)).toBe(false);
  });

  it('codeChallengeS256 refuses text that is not a verifier with a RangeError', async () => {
    await expect(codeChallengeS256('short')).rejects.toThrow(RangeError);
    await expect(codeChallengeS256(`${'a'.repeat(50)}/`)).rejects.toThrow(RangeError);
  });

  it('for any verifier or near miss: the same verdict and challenge as the reference', PROPERTY_TEST, async () => {
    await sameAsReference(
      fc.oneof(anyVerifier, nearVerifier),
      async (text) => [reference.isCodeVerifier(text), await reference.codeChallengeS256(text).catch((error: unknown) => (error instanceof RangeError ? 'RangeError' : 'Error'))],
      async (text) => [isCodeVerifier(text), await codeChallengeS256(text).catch((error: unknown) => (error instanceof RangeError ? 'RangeError' : 'Error'))],
    );
  });

  it('for any 32 random bytes: the same verifier as the reference', PROPERTY_TEST, async () => {
    await sameAsReference(
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
      (bytes) => reference.createCodeVerifier(() => bytes),
      (bytes) => createCodeVerifier(() => bytes),
    );
  });
});

// ---- 3. the authorization request and the redirect back ----

describe('The authorization request', () => {
  const request = { clientId: 'c 1', redirectUri: REDIRECT, codeChallenge: 'abc', state: 's', resource: 'http://localhost:3000/mcp' };

  it("carries response_type, client_id, redirect_uri, PKCE S256, state, resource and scope, and keeps the endpoint's own query", () => {
    const url = new URL(authorizationUrl(SERVER, { ...request, scope: 'a b' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://auth.example.com/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      tenant: '1',
      response_type: 'code',
      client_id: 'c 1',
      redirect_uri: REDIRECT,
      code_challenge: 'abc',
      code_challenge_method: 'S256',
      state: 's',
      resource: 'http://localhost:3000/mcp',
      scope: 'a b',
    });
  });

  it('leaves scope out when there is none', () => {
    expect(new URL(authorizationUrl(SERVER, request)).searchParams.has('scope')).toBe(false);
  });

  it('asks for consent with offline_access, and only then', () => {
    expect(new URL(authorizationUrl(SERVER, { ...request, scope: 'tools:read offline_access' })).searchParams.get('prompt')).toBe('consent');
    expect(new URL(authorizationUrl(SERVER, { ...request, scope: 'tools:read' })).searchParams.has('prompt')).toBe(false);
  });

  it('for any request: the same parameters as the reference', PROPERTY_TEST, async () => {
    await sameAsReference(
      fc.record({
        clientId: fc.constantFrom('c', 'https://app.example.com/client.json', 'id with space', '客户端'),
        redirectUri: fc.constantFrom(REDIRECT, 'https://app.example.com/cb'),
        codeChallenge: fc.constantFrom('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 'x'),
        state: fc.string({ minLength: 1, maxLength: 20 }),
        resource: anyHttpUrl,
        scope,
      }),
      (input) => [...new URL(reference.authorizationUrl(SERVER, input)).searchParams].sort(),
      (input) => [...new URL(authorizationUrl(SERVER, input)).searchParams].sort(),
    );
  });
});

describe('The redirect back', () => {
  const back = (query: string) => `${REDIRECT}?${query}`;
  const iss = `iss=${encodeURIComponent(SERVER.issuer)}`;
  const expected = { state: 's', server: SERVER };

  it('gives the code when state and iss are right', () => {
    expect(codeFromRedirect(back(`code=abc&state=s&${iss}`), expected)).toBe('abc');
  });

  it('refuses another state, or none: the redirect was not for this request', () => {
    expectAuthorizationError(() => codeFromRedirect(back(`code=abc&state=t&${iss}`), expected));
    expectAuthorizationError(() => codeFromRedirect(back(`code=abc&${iss}`), expected));
  });

  it('refuses an iss that is not the issuer (a mix-up), and a missing one when the server promised it', () => {
    expectAuthorizationError(() => codeFromRedirect(back(`code=abc&state=s&iss=${encodeURIComponent('https://evil.example.com')}`), expected));
    expectAuthorizationError(() => codeFromRedirect(back('code=abc&state=s'), expected));
  });

  it('takes a redirect without iss from a server that does not send one, but still refuses a wrong one', () => {
    const quiet = { state: 's', server: { ...SERVER, issParameterSupported: false } };
    expect(codeFromRedirect(back('code=abc&state=s'), quiet)).toBe('abc');
    expectAuthorizationError(() => codeFromRedirect(back('code=abc&state=s&iss=https%3A%2F%2Fevil.example.com'), quiet));
  });

  it('refuses an error from the authorization server, and a missing or empty code', () => {
    expectAuthorizationError(() => codeFromRedirect(back(`error=access_denied&state=s&${iss}`), expected));
    expectAuthorizationError(() => codeFromRedirect(back(`code=&state=s&${iss}`), expected));
    expectAuthorizationError(() => codeFromRedirect(back(`state=s&${iss}`), expected));
  });

  it('refuses what is not a URL', () => {
    expectAuthorizationError(() => codeFromRedirect('not a url', expected));
  });

  it('for any redirect: takes and refuses what the reference does, with the same code', PROPERTY_TEST, async () => {
    const part = (name: string, values: fc.Arbitrary<string>) => fc.option(values.map((value) => `${name}=${encodeURIComponent(value)}`), { nil: undefined });
    await sameAsReference(
      fc.record({
        code: part('code', fc.constantFrom('abc', '', 'x y')),
        state: part('state', fc.constantFrom('s', 't', '')),
        iss: part('iss', fc.constantFrom(SERVER.issuer, 'https://evil.example.com', `${SERVER.issuer}/`)),
        error: part('error', fc.constantFrom('access_denied', 'invalid_scope')),
        promised: fc.boolean(),
      }),
      ({ promised, ...parts }) => reference.codeFromRedirect(back(Object.values(parts).filter(Boolean).join('&')), { state: 's', server: { ...SERVER, issParameterSupported: promised } }),
      ({ promised, ...parts }) => codeFromRedirect(back(Object.values(parts).filter(Boolean).join('&')), { state: 's', server: { ...SERVER, issParameterSupported: promised } }),
    );
  });
});

// ---- 4. the token request ----

describe('The token request', () => {
  const publicClient: ClientIdentity = { clientId: 'app', authMethod: 'none', how: 'registered' };
  const code: Grant = { type: 'authorization_code', code: 'abc', redirectUri: REDIRECT, codeVerifier: 'v'.repeat(43) };
  const RESOURCE = 'http://localhost:3000/mcp';

  it('a code: grant_type, code, the same redirect_uri, code_verifier, resource, and client_id for a public client', () => {
    expect(tokenRequestForm(publicClient, code, RESOURCE)).toEqual({
      fields: { grant_type: 'authorization_code', code: 'abc', redirect_uri: REDIRECT, code_verifier: 'v'.repeat(43), resource: RESOURCE, client_id: 'app' },
      headers: {},
    });
  });

  it('a refresh: grant_type, refresh_token, resource; scope only when the grant has one', () => {
    expect(tokenRequestForm(publicClient, { type: 'refresh_token', refreshToken: 'r' }, RESOURCE).fields).toEqual({ grant_type: 'refresh_token', refresh_token: 'r', resource: RESOURCE, client_id: 'app' });
    expect(tokenRequestForm(publicClient, { type: 'refresh_token', refreshToken: 'r', scope: 'tools:read' }, RESOURCE).fields.scope).toBe('tools:read');
  });

  it('client_secret_post: client_id and client_secret in the form, no header', () => {
    const form = tokenRequestForm({ clientId: 'app', clientSecret: 'sh', authMethod: 'client_secret_post', how: 'pre-registered' }, code, RESOURCE);
    expect(form.fields).toMatchObject({ client_id: 'app', client_secret: 'sh' });
    expect(form.headers).toEqual({});
  });

  it('client_secret_basic: the Authorization header, and no client_id or secret in the form', () => {
    const form = tokenRequestForm({ clientId: 'app', clientSecret: 'sh', authMethod: 'client_secret_basic', how: 'pre-registered' }, code, RESOURCE);
    expect(form.headers).toEqual({ authorization: 'Basic YXBwOnNo' });
    expect(form.fields).not.toHaveProperty('client_id');
    expect(form.fields).not.toHaveProperty('client_secret');
  });

  it('basicCredentials form-urlencodes each part before joining them with a colon', () => {
    expect(basicCredentials('a:b c', 'p@ss/word')).toBe(`Basic ${btoa('a%3Ab+c:p%40ss%2Fword')}`);
    expect(basicCredentials('app', 'sh')).toBe('Basic YXBwOnNo');
  });

  it('for any client, grant and resource: the same fields and headers as the reference', PROPERTY_TEST, async () => {
    const client = fc.record({
      clientId: fc.constantFrom('app', 'https://app.example.com/client.json', 'a:b c', '客户端'),
      clientSecret: fc.option(fc.constantFrom('sh', 'p@ss:word', 'ü'), { nil: undefined }),
      authMethod: fc.constantFrom('none', 'client_secret_basic', 'client_secret_post'),
      how: fc.constant('pre-registered'),
    }) as fc.Arbitrary<ClientIdentity>;
    const grant = fc.oneof(
      fc.record({ type: fc.constant('authorization_code'), code: fc.string({ minLength: 1 }), redirectUri: fc.constantFrom(REDIRECT, 'https://app.example.com/cb'), codeVerifier: anyVerifier }),
      fc.record({ type: fc.constant('refresh_token'), refreshToken: fc.string({ minLength: 1 }), scope }, { requiredKeys: ['type', 'refreshToken'] }),
    ) as fc.Arbitrary<Grant>;
    await sameAsReference(
      fc.record({ client, grant, resource: anyHttpUrl }),
      ({ client: c, grant: g, resource }) => reference.tokenRequestForm(c, g, resource),
      ({ client: c, grant: g, resource }) => tokenRequestForm(c, g, resource),
    );
  });
});
