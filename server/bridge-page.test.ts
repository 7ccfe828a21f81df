import { describe, expect, it } from 'vitest';
import { allInterfaceOrigins, bridgeMetaFor, injectBridgeMeta, isLoopbackHost, loopbackOrigins } from './bridge-page.ts';

const HTML = '<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n  </head>\n  <body></body>\n</html>';

describe('bridge meta tags', () => {
  it('gives the token on loopback, whatever the URL, but never writes it into the page', () => {
    const meta = bridgeMetaFor('/lesson/2', { token: 'abc', shared: false });
    expect(meta).toEqual({ token: 'abc', shared: false });
    const html = injectBridgeMeta(HTML, meta);
    expect(html).not.toContain('abc');
    expect(html).not.toContain('mcp-bridge-shared');
  });

  it('in shared mode gives the token only to a URL that already carries it', () => {
    const mode = { token: 'abc', shared: true };
    expect(bridgeMetaFor('/', mode)).toEqual({ token: null, shared: true });
    expect(bridgeMetaFor('/?token=abd', mode)).toEqual({ token: null, shared: true });
    expect(bridgeMetaFor('/x?lang=zh&token=abc', mode)).toEqual({ token: 'abc', shared: true });
    const withoutToken = injectBridgeMeta(HTML, bridgeMetaFor('/', mode));
    expect(withoutToken).toContain('<meta name="mcp-bridge-shared" content="1">');
    expect(withoutToken).not.toContain('mcp-bridge-token');
  });

  it("tells a page that gets the token whether the bridge runs learner code, and nobody else", () => {
    const loopback = injectBridgeMeta(HTML, bridgeMetaFor('/', { token: 'abc', shared: false, learnerCode: 'not-enabled' }));
    expect(loopback).toContain('<meta name="mcp-bridge-learner-code" content="not-enabled">');
    expect(injectBridgeMeta(HTML, bridgeMetaFor('/', { token: 'abc', shared: false, learnerCode: 'sandboxed' }))).toContain('content="sandboxed"');
    // No token, no bridge: nothing to say about it.
    expect(injectBridgeMeta(HTML, bridgeMetaFor('/', { token: 'abc', shared: true, learnerCode: 'shared-bridge' }))).not.toContain('mcp-bridge-learner-code');
  });

  it('escapes the attribute and copes with a <head> that has attributes or is missing', () => {
    expect(injectBridgeMeta('<head data-x="1"><title>', { token: 't', shared: false, learnerCode: 'a"<b' as never })).toBe(
      '<head data-x="1">\n    <meta name="mcp-bridge-learner-code" content="a&quot;&lt;b"><title>',
    );
    expect(injectBridgeMeta('<body>', { token: 't', shared: true })).toBe('<meta name="mcp-bridge-shared" content="1"><body>');
    expect(injectBridgeMeta(HTML, { token: 't', shared: false })).toBe(HTML);
    expect(injectBridgeMeta(HTML, { token: null, shared: false })).toBe(HTML);
  });
});

describe('origins', () => {
  it('lists the loopback names of the page', () => {
    expect(loopbackOrigins(5317)).toEqual(['http://127.0.0.1:5317', 'http://localhost:5317', 'http://[::1]:5317']);
    expect(allInterfaceOrigins(4000)).toEqual(expect.arrayContaining(loopbackOrigins(4000)));
    expect(allInterfaceOrigins(4000).every((origin) => origin.startsWith('http://') && origin.endsWith(':4000'))).toBe(true);
  });

  it('knows loopback from the rest', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) expect(isLoopbackHost(host), host).toBe(false);
  });
});
