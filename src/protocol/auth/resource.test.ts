import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resourceCovers } from './resource.ts';

describe('resourceCovers: the metadata names this server', () => {
  it.each([
    ['http://localhost:3000/mcp', 'http://localhost:3000/mcp', true],
    ['http://localhost:3000', 'http://localhost:3000/mcp', true],
    ['http://localhost:3000/', 'http://localhost:3000/mcp', true],
    ['https://api.example.com/v1', 'https://api.example.com/v1/mcp', true],
    ['https://api.example.com/v1/', 'https://api.example.com/v1/mcp', true],
    ['https://api.example.com/v1', 'https://api.example.com/v10/mcp', false],
    ['https://evil.example.com/mcp', 'http://localhost:3000/mcp', false],
    ['http://localhost:3001/mcp', 'http://localhost:3000/mcp', false],
    ['https://localhost:3000/mcp', 'http://localhost:3000/mcp', false],
    ['http://localhost:3000/other', 'http://localhost:3000/mcp', false],
    ['http://localhost:3000/mcp#x', 'http://localhost:3000/mcp', false],
    ['not a url', 'http://localhost:3000/mcp', false],
  ])('%s covers %s: %s', (resource, endpoint, covers) => {
    expect(resourceCovers(resource, endpoint)).toBe(covers);
  });

  it('never covers an endpoint on another origin, whatever the paths', () => {
    const segment = fc.stringMatching(/^[a-z0-9]{1,6}$/);
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 3 }), fc.array(segment, { maxLength: 3 }), fc.integer({ min: 1, max: 65535 }), (a, b, port) => {
        const endpoint = `http://localhost:${port === 80 ? 81 : port}/${b.join('/')}`;
        expect(resourceCovers(`http://example.com/${a.join('/')}`, endpoint)).toBe(false);
        // The same origin and the endpoint's own path, or any of its parents, does.
        const parents = b.map((_, i) => `http://localhost:${port === 80 ? 81 : port}/${b.slice(0, i).join('/')}`);
        for (const parent of parents) expect(resourceCovers(parent, endpoint)).toBe(true);
      }),
    );
  });
});
