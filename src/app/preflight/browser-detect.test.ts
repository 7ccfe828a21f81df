import { describe, expect, it } from 'vitest';
import { detectBrowser, isSafariTooOld } from './browser-detect.ts';

const UA = {
  chrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  headless: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  safari163: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.3 Safari/605.1.15',
  safari17: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15',
  iphoneChrome: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
};

describe('detectBrowser', () => {
  it.each([
    [UA.chrome, false, 'chrome', 131],
    [UA.chrome, true, 'brave', 131],
    [UA.edge, false, 'edge', 131],
    [UA.firefox, false, 'firefox', 133],
    [UA.safari163, false, 'safari', 16.3],
    [UA.safari17, false, 'safari', 17.4],
    [UA.iphoneChrome, false, 'ios', 17.2],
    [UA.ipad, false, 'ios', 16.6],
    ['curl/8.0', false, 'other', null],
  ])('%s (brave=%s) is %s %s', (ua, brave, family, version) => {
    const browser = detectBrowser(ua, brave);
    expect(browser.family).toBe(family);
    expect(browser.version).toBe(version);
    expect(browser.label).not.toBe('');
  });

  it('names headless Chromium as Chrome', () => {
    expect(detectBrowser(UA.headless).family).toBe('chrome');
  });

  it('knows Safari before 16.4 cannot run WebContainers', () => {
    expect(isSafariTooOld(detectBrowser(UA.safari163))).toBe(true);
    expect(isSafariTooOld(detectBrowser(UA.safari17))).toBe(false);
    expect(isSafariTooOld(detectBrowser(UA.chrome))).toBe(false);
  });
});
