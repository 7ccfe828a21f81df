// Which browser this is, only so far as the WebContainer fixes differ: cookie settings live in a
// different place in each, Firefox's strict tracking protection and Brave's shields block it,
// Safari needs 16.4, and nothing on iOS can run it. User-agent sniffing is unreliable in general;
// here a wrong guess only shows the wrong settings path, and the generic advice is always there.

export type BrowserFamily = 'chrome' | 'edge' | 'brave' | 'firefox' | 'safari' | 'ios' | 'other';

export interface BrowserInfo {
  family: BrowserFamily;
  /** Major.minor where the family has one worth knowing (Safari), else the major version. */
  version: number | null;
  /** For people: "Safari 16.3", "Chrome 131". */
  label: string;
}

/** `isBrave`: Brave reports Chrome's user agent; only `navigator.brave` gives it away. */
export function detectBrowser(userAgent: string, isBrave = false): BrowserInfo {
  const number = (pattern: RegExp) => {
    const match = pattern.exec(userAgent);
    return match?.[1] === undefined ? null : Number.parseFloat(match[1].replace('_', '.'));
  };
  // Every iOS browser is WebKit underneath, whatever it calls itself (CriOS, FxiOS, EdgiOS).
  if (/\b(iPhone|iPad|iPod)\b/.test(userAgent)) {
    const version = number(/OS (\d+[_.]\d+)/);
    return { family: 'ios', version, label: version === null ? 'iOS' : `iOS ${version}` };
  }
  const edge = number(/\bEdg(?:e|A)?\/(\d+)/);
  if (edge !== null) return { family: 'edge', version: edge, label: `Edge ${edge}` };
  const firefox = number(/\bFirefox\/(\d+)/);
  if (firefox !== null) return { family: 'firefox', version: firefox, label: `Firefox ${firefox}` };
  const chrome = number(/\b(?:HeadlessChrome|Chrome|Chromium)\/(\d+)/);
  if (chrome !== null) return isBrave ? { family: 'brave', version: chrome, label: `Brave (Chromium ${chrome})` } : { family: 'chrome', version: chrome, label: `Chrome ${chrome}` };
  const safari = /\bSafari\//.test(userAgent) ? number(/\bVersion\/(\d+(?:\.\d+)?)/) : null;
  if (safari !== null) return { family: 'safari', version: safari, label: `Safari ${safari}` };
  return { family: 'other', version: null, label: userAgent.slice(0, 60) || 'unknown browser' };
}

/** Safari can run WebContainers from 16.4 on; an older one never will, whatever the settings. */
export function isSafariTooOld(browser: BrowserInfo): boolean {
  return browser.family === 'safari' && browser.version !== null && browser.version < 16.4;
}
