import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets, secretRanges } from './secrets.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);
const shown = (message: string) => secretRanges(bytes(message)).map(({ start, end, kind }) => [kind, message.slice(start, end)]);

describe('secretRanges', () => {
  it('finds the credentials of Authorization (after the scheme), Cookie and Set-Cookie, whatever the case of the name', () => {
    const request = 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nauthorization: Bearer eyJ.abc.def\r\nCookie: _session=s3\r\n\r\n{}';
    expect(shown(request)).toEqual([
      ['authorization', 'eyJ.abc.def'],
      ['cookie', '_session=s3'],
    ]);
    expect(shown('POST /token HTTP/1.1\r\nAuthorization: Basic YXBwOnNo\r\n\r\n')).toEqual([['authorization', 'YXBwOnNo']]);
    expect(shown('HTTP/1.1 303 See Other\r\nSet-Cookie: _interaction=u1; path=/interaction\r\n\r\n')).toEqual([['set-cookie', '_interaction=u1; path=/interaction']]);
  });

  it('finds the code and the PKCE verifier in a query or a form, and leaves state and the challenge alone', () => {
    expect(shown('GET /callback?code=c0de&state=s&iss=http%3A%2F%2F127.0.0.1 HTTP/1.1\r\n\r\n')).toEqual([['code', 'c0de']]);
    expect(shown('HTTP/1.1 303 See Other\r\nLocation: http://127.0.0.1:5/cb?code=xyz&state=s\r\n\r\n')).toEqual([['code', 'xyz']]);
    const form = 'POST /token HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\ngrant_type=authorization_code&code=c0de&code_verifier=v3r&client_secret=sh&resource=x';
    expect(shown(form)).toEqual([
      ['code', 'c0de'],
      ['code_verifier', 'v3r'],
      ['client_secret', 'sh'],
    ]);
    expect(shown('GET /auth?code_challenge=abc&state=s HTTP/1.1\r\n\r\n')).toEqual([]);
  });

  it('finds the tokens and the client secret in a JSON answer, escapes and all', () => {
    const answer = 'HTTP/1.1 200 OK\r\n\r\n{"access_token":"a.b.c","token_type":"Bearer","refresh_token" : "r\\"1","scope":"tools:read"}';
    expect(shown(answer)).toEqual([
      ['access_token', 'a.b.c'],
      ['refresh_token', 'r\\"1'],
    ]);
    expect(shown('{"client_id":"app","client_secret":"sh","registration_access_token":"rat"}')).toEqual([
      ['client_secret', 'sh'],
      ['registration_access_token', 'rat'],
    ]);
  });

  it('counts bytes, not characters: a range after UTF-8 text still points at the secret', () => {
    const message = '{"note":"你好 👋","access_token":"tok"}';
    const [range] = secretRanges(bytes(message));
    expect(text(bytes(message).slice(range!.start, range!.end))).toBe('tok');
  });
});

describe('redactSecrets', () => {
  it('keeps the length and every byte that is not a secret, and no secret survives', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9._~-]{1,40}$/);
    fc.assert(
      fc.property(secret, secret, secret, fc.constantFrom('Bearer', 'bearer', 'Basic'), (token, code, refresh, scheme) => {
        const message = `POST /token HTTP/1.1\r\nAuthorization: ${scheme} ${token}\r\n\r\ncode=${code}&state=keep\r\n{"refresh_token":"${refresh}","scope":"keep"}`;
        const before = bytes(message);
        const after = redactSecrets(before);
        expect(after.length).toBe(before.length);
        const redacted = text(after);
        expect(redacted).toContain('state=keep');
        expect(redacted).toContain('"scope":"keep"');
        expect(redacted).toContain(`Authorization: ${scheme} ${'*'.repeat(token.length)}\r\n`);
        expect(redacted).toContain(`code=${'*'.repeat(code.length)}&`);
        expect(redacted).toContain(`"refresh_token":"${'*'.repeat(refresh.length)}"`);
        for (let at = 0; at < before.length; at++) if (after[at] !== 0x2a) expect(after[at]).toBe(before[at]);
      }),
    );
  });

  it('gives the very same bytes back when there is nothing to hide', () => {
    const plain = bytes('POST /mcp HTTP/1.1\r\nHost: x\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(redactSecrets(plain)).toBe(plain);
  });
});
