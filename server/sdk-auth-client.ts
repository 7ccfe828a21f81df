// The official SDKs' own clients (1.32.2 and 2.4.0) on the conformance suite's authorization
// scenarios, so that the project's numbers stand beside theirs (tests/conformance/conformance-auth.test.ts).
// Each SDK does the flow itself through its OAuthClientProvider; this program only plays the part
// an application plays: it keeps what the provider is asked to keep, sends the person to the
// authorization URL the headless way (server/headless-authorization.ts: the 302 is read), checks
// the `state` it made, and hands the callback to the transport's finishAuth, then tries again.
// Then the same work as ours: connect, list the tools, call each.
//
//   npx tsx server/sdk-auth-client.ts --sdk=1|2 [--client-metadata-url=URL] URL

import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError as Unauthorized1 } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as Client2, StreamableHTTPClientTransport as Transport2, UnauthorizedError as Unauthorized2 } from '@modelcontextprotocol/client';
import { randomBytes } from 'node:crypto';
import { exampleArguments } from './example-arguments.ts';
import { followRedirectHeadless, HEADLESS_REDIRECT_URI, readConformanceContext } from './headless-authorization.ts';
import { stderrLogger } from './stdio-session.ts';

const log = stderrLogger('[sdk-auth-client]');
const CLIENT_INFO = { name: 'mcp-playground-sdk-auth-client', version: '0.1.0' };
/** Tries per operation: the first, and one after each finished authorization (as many as ours allows). */
const ATTEMPTS = 3;

/** What an OAuthClientProvider keeps, for either SDK (their interfaces agree on these members). */
class HeadlessProvider {
  private client: Record<string, unknown> | undefined;
  private saved: Record<string, unknown> | undefined;
  private verifier = '';
  private lastState = '';
  /** The URL the authorization server sent the person back to, until the transport takes it. */
  callback: string | null = null;

  constructor(
    readonly clientMetadataUrl: string | undefined,
    preRegistered: Record<string, unknown> | undefined,
  ) {
    this.client = preRegistered;
  }

  get redirectUrl(): string {
    return HEADLESS_REDIRECT_URI;
  }
  get clientMetadata() {
    return { client_name: CLIENT_INFO.name, redirect_uris: [HEADLESS_REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] };
  }
  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }
  clientInformation() {
    return this.client as never;
  }
  saveClientInformation(information: Record<string, unknown>): void {
    this.client = information;
  }
  tokens() {
    return this.saved as never;
  }
  saveTokens(tokens: Record<string, unknown>): void {
    this.saved = tokens;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    const callback = await followRedirectHeadless(url.href);
    if (new URL(callback).searchParams.get('state') !== this.lastState) throw new Error('the redirect does not carry the state this client sent');
    this.callback = callback;
  }
}

interface SdkClient {
  connect(transport: unknown): Promise<void>;
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{ isError?: unknown }>;
  close(): Promise<void>;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const url = args.at(-1);
  const sdk = args.find((arg) => arg.startsWith('--sdk='))?.slice('--sdk='.length);
  if (url === undefined || !/^https?:\/\//.test(url) || (sdk !== '1' && sdk !== '2')) {
    process.stderr.write('usage: npx tsx server/sdk-auth-client.ts --sdk=1|2 [--client-metadata-url=URL] URL\n');
    process.exitCode = 2;
    return;
  }
  const context = readConformanceContext();
  const provider = new HeadlessProvider(
    args.find((arg) => arg.startsWith('--client-metadata-url='))?.slice('--client-metadata-url='.length),
    typeof context.client_id === 'string' ? { client_id: context.client_id, ...(typeof context.client_secret === 'string' ? { client_secret: context.client_secret } : {}) } : undefined,
  );
  const Unauthorized = sdk === '1' ? Unauthorized1 : Unauthorized2;
  const newTransport = () => (sdk === '1' ? new Transport1(new URL(url), { authProvider: provider as never }) : new Transport2(new URL(url), { authProvider: provider as never }));
  let transport = newTransport();
  // The members this program uses, which both SDKs' Client have (their own types differ in detail).
  // 2.x finds the era as ours does (server/discover first, then the handshake); 1.x knows only the handshake.
  const client = (sdk === '1' ? new Client1(CLIENT_INFO) : new Client2(CLIENT_INFO, { versionNegotiation: { mode: 'auto' } })) as unknown as SdkClient;

  // The application's half of the SDKs' flow: on UnauthorizedError, finish with the callback and retry.
  async function withAuthorization<T>(operation: () => Promise<T>, reconnect: boolean): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await operation();
      } catch (error) {
        const callback = provider.callback;
        if (!(error instanceof Unauthorized) || callback === null || attempt >= ATTEMPTS) throw error;
        provider.callback = null;
        if (sdk === '1') await (transport as Transport1).finishAuth(new URL(callback).searchParams.get('code') ?? '');
        else await (transport as Transport2).finishAuth(new URL(callback).searchParams);
        log(`authorized (attempt ${attempt})`);
        if (reconnect) transport = newTransport();
      }
    }
  }

  try {
    await withAuthorization(() => client.connect(transport), true);
    const { tools } = await withAuthorization(() => client.listTools(), false);
    for (const tool of tools) {
      const result = await withAuthorization(() => client.callTool({ name: tool.name, arguments: exampleArguments(tool as never) }), false);
      log(`${tool.name}: ${result.isError === true ? 'error' : 'ok'}`);
    }
  } catch (error) {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  } finally {
    await client.close().catch(() => {});
  }
}

void main();
