// A person at a browser, for tests of the real authorization server (server/auth-server.ts): the
// page's own browser steps (src/app/protocol/auth-browser.ts) over real HTTP with fetch, answering
// the consent page with `decision`. Returns the URL the server finally sends the browser to (the
// client's redirect URI with code, state and iss), without loading it.

import { browseToRedirect } from '../../src/app/protocol/auth-browser.ts';
import type { HttpExchange } from '../../src/protocol/http/types.ts';
import { createFetchExchange } from '../../server/fetch-exchange.ts';

export interface ConsentOptions {
  decision?: 'allow' | 'deny';
  /** Every URL the browser was at, in order (for a test that checks the steps). */
  visited?: string[];
  /** The Origin the browser sends; default the authorization server's own (a browser on its page). */
  origin?: string;
}

const manual = createFetchExchange({ redirect: 'manual' });

export function consentInBrowser(authorizationUrl: string, options: ConsentOptions = {}): Promise<string> {
  const origin = options.origin ?? new URL(authorizationUrl).origin;
  const browser: HttpExchange = (request) => manual({ ...request, headers: { ...request.headers, origin } });
  return browseToRedirect(browser, authorizationUrl, () => options.decision ?? 'allow', { onStep: (url) => options.visited?.push(url) });
}
