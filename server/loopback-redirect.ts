// The redirect step of the authorization flow for a person at a terminal (RFC 8252, OAuth for
// native apps): a one-page HTTP listener on 127.0.0.1, on a port the OS picks, whose
// http://127.0.0.1:PORT/callback is the client's redirect URI. The program prints the
// authorization URL; the person opens it in their browser, signs in, and the authorization server
// sends the browser back here. Nothing is spawned (no browser is opened for them).
//
// It answers only what it waits for: a GET of /callback, with this listener's own Host, carrying
// the `state` of the one authorization request in flight (an unguessable value, so a page that
// knows the port still cannot feed it a code). Anything else gets a 4xx and changes nothing. The
// flow itself checks state, iss and code again (authorization-request.ts).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackRedirect {
  /** http://127.0.0.1:PORT/callback */
  redirectUri: string;
  /** Send the person to `url` (announce it), and resolve with the URL their browser came back to. */
  redirect(url: string): Promise<string>;
  close(): Promise<void>;
}

export interface LoopbackRedirectOptions {
  /** Tell the person to open `url` (the program prints it). */
  announce(url: string): void;
  /** How long a person may take to sign in; default 5 minutes. */
  timeoutMs?: number;
}

export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;
const CALLBACK_PATH = '/callback';

// The page the browser lands on: no script, nothing loaded, both of the playground's languages.
const DONE_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Signed in · 已登录</title></head>
<body><p lang="en">Signed in. You can close this tab and go back to the terminal.</p>
<p lang="zh-CN">已登录。可以关闭这个标签页，回到终端。</p></body></html>
`;

interface Waiting {
  state: string;
  resolve(url: string): void;
}

export async function startLoopbackRedirect(options: LoopbackRedirectOptions): Promise<LoopbackRedirect> {
  let waiting: Waiting | null = null;
  let host = '';
  const server = createServer((request, response) => {
    const found = accept(request, host, waiting?.state);
    if (typeof found === 'number') return answer(response, found, found === 404 ? 'not found' : 'not the sign-in this listener waits for');
    answer(response, 200, DONE_PAGE, 'text/html; charset=utf-8');
    const done = waiting;
    waiting = null;
    done?.resolve(`http://${host}${request.url}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS;

  return {
    redirectUri: `http://${host}${CALLBACK_PATH}`,
    redirect(url) {
      if (waiting !== null) return Promise.reject(new Error('a sign-in is already waiting for its callback'));
      const state = new URL(url).searchParams.get('state');
      if (state === null || state === '') return Promise.reject(new Error('the authorization URL carries no state: refused'));
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting = null;
          reject(new Error(`nobody signed in within ${Math.round(timeoutMs / 1000)} s`));
        }, timeoutMs);
        waiting = {
          state,
          resolve: (callback) => {
            clearTimeout(timer);
            resolve(callback);
          },
        };
        options.announce(url);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** True for the callback this listener waits for; otherwise the status to answer with. */
function accept(request: IncomingMessage, host: string, state: string | undefined): true | number {
  if (request.headers.host !== host) return 421;
  const url = new URL(request.url ?? '/', `http://${host}`);
  if (url.pathname !== CALLBACK_PATH) return 404;
  if (request.method !== 'GET') return 405;
  if (state === undefined || url.searchParams.get('state') !== state) return 400;
  return true;
}

function answer(response: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  response.writeHead(status, {
    'content-type': type,
    'content-security-policy': "default-src 'none'",
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  });
  response.end(body);
}
