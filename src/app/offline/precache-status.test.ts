import { describe, expect, it } from 'vitest';
import { countPrecached, isPrecacheComplete, isPrecacheStatus, isPrecacheStatusRequest, pageIsFromBuild, PRECACHE_STATUS_REQUEST } from './precache-status.ts';

describe('countPrecached', () => {
  it('counts what is cached and lists a few of the missing files', async () => {
    const urls = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const status = await countPrecached(urls, async (url) => url === 'a' || url === 'h', 3);
    expect(status).toEqual({ expected: 8, cached: 2, missing: ['b', 'c', 'd'], manifest: urls });
    expect(isPrecacheComplete(status)).toBe(false);
  });

  it('counts a lookup that throws as missing', async () => {
    const status = await countPrecached(['a', 'b'], async (url) => {
      if (url === 'b') throw new Error('cache gone');
      return true;
    });
    expect(status).toEqual({ expected: 2, cached: 1, missing: ['b'], manifest: ['a', 'b'] });
  });

  it('is complete only when every file of a non-empty manifest is there', async () => {
    expect(isPrecacheComplete(await countPrecached(['a', 'b'], async () => true))).toBe(true);
    expect(isPrecacheComplete(await countPrecached([], async () => true))).toBe(false);
  });
});

describe('messages', () => {
  it('recognises the request and a well-formed answer only', () => {
    expect(isPrecacheStatusRequest({ type: PRECACHE_STATUS_REQUEST })).toBe(true);
    expect(isPrecacheStatusRequest({ type: 'SKIP_WAITING' })).toBe(false);
    expect(isPrecacheStatusRequest(null)).toBe(false);
    expect(isPrecacheStatus({ expected: 3, cached: 1, missing: [], manifest: [] })).toBe(true);
    expect(isPrecacheStatus({ expected: 3, cached: 1, missing: [] })).toBe(false);
    expect(isPrecacheStatus({ expected: '3', cached: 1, missing: [], manifest: [] })).toBe(false);
    expect(isPrecacheStatus(undefined)).toBe(false);
  });
});

describe('pageIsFromBuild', () => {
  const manifest = ['http://h/index.html', 'http://h/assets/index-NEW.js', 'http://h/assets/editor-X.js'];

  it('is true when every entry script of the page is in the manifest', () => {
    expect(pageIsFromBuild(['http://h/assets/index-NEW.js'], manifest)).toBe(true);
  });

  it('is false for a page of another build, or a page without known scripts', () => {
    expect(pageIsFromBuild(['http://h/assets/index-OLD.js'], manifest)).toBe(false);
    expect(pageIsFromBuild([], manifest)).toBe(false);
  });
});
