// The authorization scene's plumbing on the bridge, without the page's UI: the page asks for
// mcp-http with its own authorization server (`auth: "self"`), and its wire's HTTP/1.1 client, over
// loopback TCP relayed by the tap, does everything a signed-in client does — the 401, both
// metadata documents, registration, the authorization request, the consent page and its form (the
// page playing the person's browser), the token, then MCP with a Bearer token, a 403 and a step-up.
// Every one of those exchanges is in the tap's events, byte for byte, for the inspector.

import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { exchangesOf } from '../support/http1-items.ts';
import { McpClient } from '../../src/protocol/client.ts';
import { authorizingExchange } from '../../src/protocol/auth/authorizing-exchange.ts';
import { HttpClientTransport } from '../../src/protocol/http/client-transport.ts';
import { base64ToBytes } from '../../src/protocol/base64.ts';
import { browseToRedirect, type ConsentPage } from '../../src/app/protocol/auth-browser.ts';
import { SteppedExchange, type StepResult } from '../../src/app/protocol/auth-steps.ts';
import { createBridgeHost } from '../../src/runtime/bridge-host.ts';
import type { HttpWire } from '../../src/runtime/http-tap-wire.ts';
import type { TapEvent } from '../../src/runtime/tap-protocol.ts';
import { buildProgramsForTest, startTestBridge, waitUntil, type TestBridge } from './ws-tap-transport.ts';

let programs: { dir: string; remove(): Promise<void> };
let bridge: TestBridge;

beforeAll(async () => {
  programs = await buildProgramsForTest();
}, 120_000);
afterAll(async () => {
  await programs.remove();
});
afterEach(async () => {
  await bridge?.close();
});

function webSocketWithOrigin(origin: string): typeof WebSocket {
  return class extends WsWebSocket {
    constructor(url: string) {
      super(url, { origin });
    }
  } as unknown as typeof WebSocket;
}

/** mcp-http with its own authorization server, on the bridge: its wire, its events, and its URL. */
async function startProtected(): Promise<{ wire: HttpWire; events: TapEvent[]; endpoint: string }> {
  bridge = await startTestBridge({ programsDir: programs.dir });
  const host = createBridgeHost({ WebSocketImpl: webSocketWithOrigin(bridge.origin), url: bridge.url.split('?')[0], token: bridge.token, pageOrigin: bridge.origin });
  const wire = (await host.start({ program: 'mcp-http', framing: 'ndjson', faults: [], auth: 'self' })) as HttpWire;
  const events: TapEvent[] = [];
  wire.onTapEvent((event) => events.push(event));

  // The server's URL, from the one line it prints when it listens (the relay reads the same line).
  let stdout = '';
  await waitUntil(
    () => {
      stdout = events.map((event) => (event.ev === 's2c' && event.conn === undefined ? new TextDecoder().decode(base64ToBytes(event.b64)) : '')).join('');
      return stdout.includes('\n');
    },
    30_000,
    'the server to print its URL',
  );
  const endpoint = stdout.split('\n')[0]!;
  expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  return { wire, events, endpoint };
}

it('signs in, steps up and calls the destructive tool, every exchange through the relay', async () => {
  const { wire, events, endpoint } = await startProtected();

  const pages: ConsentPage[] = [];
  const exchange = authorizingExchange({
    exchange: wire.exchange,
    endpoint,
    redirectUri: 'http://127.0.0.1/callback',
    identity: { clientName: 'mcp-playground-page' },
    redirect: (url) =>
      browseToRedirect(wire.exchange, url, (page) => {
        pages.push(page);
        return 'allow';
      }),
  });
  const transport = new HttpClientTransport({ url: endpoint, exchange, listen: false });
  const client = new McpClient(transport, { framing: 'ndjson', requestTimeoutMs: 30_000 });
  await client.connect();
  const deleted = await client.callTool('delete_file', { path: '/tmp/x' });
  expect(deleted.isError).not.toBe(true);
  expect(exchange.current()?.tokens.scope?.split(' ').sort()).toEqual(['tools:read', 'tools:write']);
  // Two consents: the first sign-in (tools:read), the step-up (tools:write as well).
  expect(pages).toHaveLength(2);
  expect(pages[0]!.html).toContain('mcp-playground-page');

  const lines = exchangesOf(events).map((found) => `${found.line} ${found.response?.head.status ?? '-'}`);
  // What the inspector will show, in order: the challenge, discovery, registration, the browser's
  // steps, the token, MCP with the token, the 403, and the step-up's own round.
  expect(lines.slice(0, 4)).toEqual(['POST initialize 401', 'GET 200', 'GET 200', 'POST 201']);
  expect(lines).toContain('POST tools/call 403');
  expect(lines.filter((line) => line === 'POST 200').length).toBeGreaterThanOrEqual(2); // two token requests
  const requests = exchangesOf(events).map((found) => found.request);
  expect(requests.some((request) => request.target.startsWith('/auth?') && request.target.includes('code_challenge_method=S256'))).toBe(true);
  expect(requests.filter((request) => request.headers.authorization?.startsWith('Bearer ')).length).toBeGreaterThan(0);
  wire.kill();
  await waitUntil(() => bridge.bridge.activeProcesses === 0, 10_000, 'the server to be gone');
}, 120_000);

it('one step lets one exchange go, and each is named from its request, in the order of the flow', async () => {
  const { wire, endpoint } = await startProtected();
  const stepped = new SteppedExchange(wire.exchange, endpoint);
  const exchange = authorizingExchange({
    exchange: stepped.exchange,
    endpoint,
    redirectUri: 'http://127.0.0.1/callback',
    identity: { clientName: 'mcp-playground-page', wantsRefresh: false },
    redirect: (url) => browseToRedirect(stepped.exchange, url, () => 'allow'),
  });
  const client = new McpClient(new HttpClientTransport({ url: endpoint, exchange, listen: false }), { framing: 'ndjson', requestTimeoutMs: 60_000 });
  const connected = client.connect();
  const steps: StepResult[] = [];
  // Step until initialize goes through with a token; each step releases the one request waiting.
  while (steps.at(-1)?.kind !== 'mcp' || steps.at(-1)?.status !== 200) {
    await waitUntil(() => stepped.next !== null, 10_000, `the request after ${steps.length} steps to wait`);
    const waiting = stepped.next!;
    steps.push(await stepped.step());
    expect(steps.at(-1)!.request).toBe(waiting.request);
    expect(steps.length).toBeLessThan(20);
  }
  await connected;
  expect(steps.map((step) => `${step.kind} ${step.status}`)).toEqual([
    'mcp 401',
    'resource-metadata 200',
    'server-metadata 200',
    'registration 201',
    'authorization 303', // to the login step, which the one local learner passes at once
    'browser 303',
    'browser 303', // to the consent step
    'browser 200', // the consent page
    'consent 303',
    'browser 303',
    'token 200',
    'mcp 200',
  ]);
  wire.kill();
}, 120_000);
