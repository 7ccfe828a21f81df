// The person's browser, played by the page over an HttpExchange, for the authorization scene: the
// page cannot open the authorization server in a window of its own (the server is behind the
// bridge's relay, on a port only the tap knows), so it walks the same steps a browser would, every
// byte of them on the relayed wire for the inspector to show. It opens the authorization URL,
// follows the server's redirects with the cookies it sets, hands the consent page to `decide` (the
// learner clicks Allow or Deny in the scene), posts that choice as the page's form does, and stops
// at the first redirect that leaves the authorization server: the client's redirect URI with code,
// state and iss (or an error), which it returns without loading. Pure over the exchange.

import { bodyText, drain } from '../../protocol/http/response-body.ts';
import { headerValue, type HttpExchange } from '../../protocol/http/types.ts';

/** The consent page as the server sent it, for the scene to show. */
export interface ConsentPage {
  url: string;
  html: string;
}

export type ConsentDecision = 'allow' | 'deny';

export interface BrowseOptions {
  /** Told of each URL the browser goes to, in order (the scene's sub-steps). */
  onStep?(url: string): void;
  /** The person's language, as a browser sends it (the consent page answers in it). */
  acceptLanguage?: string;
}

/** A browser gives up after this many redirects and pages (a loop, or a server that never lets go). */
export const MAX_BROWSER_STEPS = 12;

export class BrowserStepError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrowserStepError';
  }
}

export async function browseToRedirect(exchange: HttpExchange, authorizationUrl: string, decide: (page: ConsentPage) => ConsentDecision | Promise<ConsentDecision>, options: BrowseOptions = {}): Promise<string> {
  const server = new URL(authorizationUrl).origin;
  const cookies = new Map<string, string>();
  let url = authorizationUrl;
  let form: string | null = null;
  for (let step = 0; step < MAX_BROWSER_STEPS; step++) {
    if (new URL(url).origin !== server) return url;
    options.onStep?.(url);
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await exchange({
      method: form === null ? 'GET' : 'POST',
      url,
      headers: {
        accept: 'text/html',
        ...(options.acceptLanguage === undefined ? {} : { 'accept-language': options.acceptLanguage }),
        ...(cookie === '' ? {} : { cookie }),
        ...(form === null ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(form === null ? {} : { body: new TextEncoder().encode(form) }),
    });
    form = null;
    for (const line of setCookies(headerValue(response.headers, 'set-cookie'))) {
      const pair = line.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    const location = headerValue(response.headers, 'location');
    if (response.status >= 300 && response.status < 400 && location !== undefined) {
      await drain(response);
      url = new URL(location, url).href;
      continue;
    }
    const html = await bodyText(response);
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || action === undefined) throw new BrowserStepError(`the authorization server answered ${response.status} at ${url}`);
    const decision = await decide({ url, html });
    url = new URL(unescapeHtml(action), url).href;
    form = new URLSearchParams({ decision }).toString();
  }
  throw new BrowserStepError(`no redirect back after ${MAX_BROWSER_STEPS} steps`);
}

/**
 * Set-Cookie lines: one header per cookie on the wire, joined with ", " by a reader that folds
 * repeated headers. A cookie's Expires date has a comma too, so a new cookie starts only where a
 * comma is followed by `name=`.
 */
function setCookies(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(/,\s*(?=[^;,\s=]+=)/);
}

function unescapeHtml(text: string): string {
  return text.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
}
