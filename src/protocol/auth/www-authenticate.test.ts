import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerChallenge, formatChallenge, parseWwwAuthenticate, WwwAuthenticateError, type Challenge } from './www-authenticate.ts';

describe('parseWwwAuthenticate', () => {
  it("reads an MCP server's 401: the metadata URL and the scopes", () => {
    expect(parseWwwAuthenticate('Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="files:read files:write"')).toEqual([
      { scheme: 'Bearer', params: { resource_metadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp', scope: 'files:read files:write' } },
    ]);
  });

  it('tells a parameter after a comma from the next challenge, and reads a token68', () => {
    expect(parseWwwAuthenticate('Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple", Negotiate YII=')).toEqual([
      { scheme: 'Newauth', params: { realm: 'apps', type: '1', title: 'Login to "apps"' } },
      { scheme: 'Basic', params: { realm: 'simple' } },
      { scheme: 'Negotiate', token68: 'YII=', params: {} },
    ]);
  });

  it('reads several header values as one list, a bare scheme, empty list elements and spaces around "="', () => {
    expect(parseWwwAuthenticate(['Bearer', ' , Basic  realm = x ,, '])).toEqual([
      { scheme: 'Bearer', params: {} },
      { scheme: 'Basic', params: { realm: 'x' } },
    ]);
  });

  it('reads "name=" at the end, or before a comma, as a token68, and "name=value" as a parameter', () => {
    expect(parseWwwAuthenticate('A realm=, B x==, C y= z')).toEqual([
      { scheme: 'A', token68: 'realm=', params: {} },
      { scheme: 'B', token68: 'x==', params: {} },
      { scheme: 'C', params: { y: 'z' } },
    ]);
  });

  it('lowercases parameter names, not values; an empty quoted value is a value', () => {
    expect(parseWwwAuthenticate('Bearer Error="Invalid_Token", scope=""')).toEqual([{ scheme: 'Bearer', params: { error: 'Invalid_Token', scope: '' } }]);
  });

  it.each([
    ['Bearer realm="never closed', 'a quoted string that is never closed'],
    ['Bearer a=;', 'a value for the parameter a'],
    ['Bearer a=1, a=2', 'the parameter a only once'],
    ['Bearer abc def', '"=" after the parameter abc'],
    ['Bearer realm="x" y', 'a comma or the end after the parameter realm'],
    ['=x', 'an auth scheme, not "="'],
    ['Bearer/x', 'a space or a comma after the scheme "Bearer"'],
  ])('refuses %j: expected %s', (header, detail) => {
    expect(() => parseWwwAuthenticate(header)).toThrow(expect.objectContaining({ name: 'WwwAuthenticateError', detail }));
  });

  const token = fc.stringMatching(/^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,10}$/);
  const challenge: fc.Arbitrary<Challenge> = fc.oneof(
    fc.record({ scheme: token, params: fc.dictionary(token.map((name) => name.toLowerCase()), fc.string({ maxLength: 20 }), { maxKeys: 4 }) }),
    fc.record({ scheme: token, token68: fc.stringMatching(/^[A-Za-z0-9._~+/-]{1,12}={0,2}$/), params: fc.constant({}) }),
  );

  it('reads back every list of challenges it formats, whatever the values hold', () => {
    fc.assert(
      fc.property(fc.array(challenge, { minLength: 1, maxLength: 4 }), (challenges) => {
        const parsed = parseWwwAuthenticate(challenges.map(formatChallenge).join(', '));
        expect(parsed).toEqual(challenges.map((each) => ({ ...each, params: { ...each.params } })));
      }),
    );
  });

  it('on any text, returns challenges or throws WwwAuthenticateError, nothing else', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        try {
          expect(Array.isArray(parseWwwAuthenticate(text))).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(WwwAuthenticateError);
        }
      }),
    );
  });
});

describe('bearerChallenge', () => {
  it("reads a 403's step-up request: insufficient_scope and the scopes wanted", () => {
    expect(bearerChallenge('Basic realm="x", bearer error="insufficient_scope", scope="files:read  files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", error_description="needs write"')).toEqual({
      error: 'insufficient_scope',
      scopes: ['files:read', 'files:write'],
      resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource',
      errorDescription: 'needs write',
    });
  });

  it('is null without a Bearer challenge, and empty for a bare one', () => {
    expect(bearerChallenge('Basic realm="x"')).toBeNull();
    expect(bearerChallenge('Bearer')).toEqual({});
  });
});
