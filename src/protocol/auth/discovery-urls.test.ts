import { describe, expect, it } from 'vitest';
import { authorizationServerMetadataUrls, DiscoveryUrlError, protectedResourceMetadataUrls } from './discovery-urls.ts';

describe('protectedResourceMetadataUrls', () => {
  it("uses the 401's resource_metadata alone when the server names one", () => {
    expect(protectedResourceMetadataUrls('https://mcp.example.com/public/mcp', 'https://meta.example.com/prm.json')).toEqual(['https://meta.example.com/prm.json']);
  });

  it("otherwise inserts the endpoint's path into the well-known URL, then tries the root", () => {
    expect(protectedResourceMetadataUrls('https://mcp.example.com/public/mcp/')).toEqual([
      'https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp',
      'https://mcp.example.com/.well-known/oauth-protected-resource',
    ]);
    expect(protectedResourceMetadataUrls('http://127.0.0.1:5317/?x=1')).toEqual(['http://127.0.0.1:5317/.well-known/oauth-protected-resource']);
  });

  it('refuses what is not an absolute http(s) URL, saying which', () => {
    expect(() => protectedResourceMetadataUrls('/mcp')).toThrow(new DiscoveryUrlError('the MCP endpoint is not an absolute URL: "/mcp"'));
    expect(() => protectedResourceMetadataUrls('https://mcp.example.com/mcp', 'file:///etc/passwd')).toThrow(new DiscoveryUrlError('resource_metadata must be http or https, not file:'));
  });
});

describe('authorizationServerMetadataUrls', () => {
  it('for an issuer with a path: OAuth and OpenID with the path inserted, then OpenID with it appended', () => {
    expect(authorizationServerMetadataUrls('https://auth.example.com/tenant1')).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ]);
  });

  it('for an issuer without one: the two root forms, OAuth first', () => {
    expect(authorizationServerMetadataUrls('https://auth.example.com/')).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server',
      'https://auth.example.com/.well-known/openid-configuration',
    ]);
  });
});
