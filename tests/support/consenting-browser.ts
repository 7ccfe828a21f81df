// A person at a browser, for tests of the real authorization server (server/auth-server.ts): opens
// the authorization URL, follows the redirects with the cookies the server sets, answers the
// consent page's form with `decision`, and returns the URL the server finally sends the browser to
// (the client's redirect URI with code, state and iss), without loading it. Real HTTP, fetch only:
// the consent page runs no script, so a form post is all a browser does there.

export interface ConsentOptions {
  decision?: 'allow' | 'deny';
  /** Every URL the browser was at, in order (for a test that checks the steps). */
  visited?: string[];
  /** The Origin of the consent form's POST; default the authorization server's own (a browser on its page). */
  origin?: string;
}

const MAX_STEPS = 12;

export async function consentInBrowser(authorizationUrl: string, options: ConsentOptions = {}): Promise<string> {
  const server = new URL(authorizationUrl).origin;
  const cookies = new Map<string, string>();
  let url = authorizationUrl;
  let form: { action: string; decision: string } | null = null;
  for (let step = 0; step < MAX_STEPS; step++) {
    if (new URL(url).origin !== server) return url; // left the server: the redirect back
    options.visited?.push(url);
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      method: form === null ? 'GET' : 'POST',
      redirect: 'manual',
      headers: {
        ...(cookie === '' ? {} : { cookie }),
        ...(form === null ? {} : { origin: options.origin ?? server, 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(form === null ? {} : { body: new URLSearchParams({ decision: form.decision }).toString() }),
    });
    form = null;
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      url = new URL(location, url).href;
      continue;
    }
    const page = await response.text();
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
    if (response.status !== 200 || action === undefined) throw new Error(`the authorization server answered ${response.status} at ${url}: ${page.slice(0, 300)}`);
    url = new URL(action.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code))), url).href;
    form = { action: url, decision: options.decision ?? 'allow' };
  }
  throw new Error(`no redirect back after ${MAX_STEPS} steps`);
}
