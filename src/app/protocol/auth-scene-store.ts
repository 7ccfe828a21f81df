// The authorization scene's state machine: the reference MCP client signs in to mcp-http, which is
// a protected resource with its own authorization server (`auth: "self"`, oidc-provider), on the
// live host, one HTTP exchange per press of Step. Everything the client does is the protocol
// layer's (authorizingExchange, flow.ts); the page plays the person's browser (auth-browser.ts) and
// the person (Allow or Deny, in the scene). The scene reads, from the bytes that crossed:
//   - the PKCE pair: the challenge in the authorization request, the verifier in the token request,
//     and whether BASE64URL(SHA-256(verifier)) is that challenge;
//   - the redirect back: code, state and iss;
//   - the access token's header and claims (aud, iss, exp, scope), judged for this server.
// A failure card (auth-cards.ts) runs the same scene with one thing broken, to its end. With "your
// code" (exercise 8), the flow's pure steps are the learner's file, run in the learner worker
// (learner-auth-steps.ts); everything else stays the reference's.
// React-free: the view subscribes through useSyncExternalStore.

import { McpClient } from '../../protocol/client.ts';
import { DualEraClient } from '../../protocol/era/dual-era-client.ts';
import { MODERN_PROTOCOL_VERSION } from '../../protocol/era/meta.ts';
import { ModernHttpClientTransport } from '../../protocol/http/modern-client-transport.ts';
import type { CallToolResult } from '../../protocol/mcp.ts';
import { authorizingExchange, type AuthorizingExchange } from '../../protocol/auth/authorizing-exchange.ts';
import { codeChallengeS256 } from '../../protocol/auth/pkce.ts';
import { HttpClientTransport } from '../../protocol/http/client-transport.ts';
import type { HttpClientRequest, HttpClientResponse, HttpExchange } from '../../protocol/http/types.ts';
import { headerValue } from '../../protocol/http/types.ts';
import { accessTokenFacts, readJwt, type ClaimFact } from '../../protocol/inspect/jwt-view.ts';
import { concatBytes } from '../../protocol/inspect/concat-bytes.ts';
import { base64ToBytes } from '../../protocol/base64.ts';
import type { HostKind, ProgramSpec } from '../../runtime/host.ts';
import type { HttpWire } from '../../runtime/http-tap-wire.ts';
import type { TapEvent } from '../../runtime/tap-protocol.ts';
import { createStore, ExternalStore, type Store } from '../store/create-store.ts';
import { afterSignIn, alterRedirect, alterRequest, isAuthorizationRequest, tokenForm, type AuthCard } from './auth-cards.ts';
import { browseToRedirect, type ConsentDecision, type ConsentPage } from './auth-browser.ts';
import { SteppedExchange, type AuthStepKind } from './auth-steps.ts';
import { HttpExchangeRecorder, type HttpExchangeRecord } from './http-exchanges.ts';
import type { LearnerAuthSteps } from './learner-auth-steps.ts';
import type { ClientStepName } from '../../protocol/auth/client-steps.ts';
import { provideDigest } from '../../sandbox/webcrypto-digest.ts';

/** Who writes the client's pure steps: the reference, or the learner's exercise 8 file. */
export type AuthClientKind = 'reference' | 'learner';

/**
 * Which era the signed-in session speaks: the handshake (initialize first) or 2026-07-28
 * (server/discover, no session). Authorization is the same in both: the first request meets the 401.
 */
export type AuthEra = 'handshake' | 'modern';

export const AUTH_PROGRAM: ProgramSpec = { program: 'mcp-http', framing: 'ndjson', faults: [], auth: 'self' };
/** Where the authorization server sends the person back: a loopback redirect URI (any port, RFC 8252). */
export const AUTH_REDIRECT_URI = 'http://127.0.0.1/callback';
export const AUTH_CLIENT_NAME = 'MCP Playground';
/** What the signed-in client echoes. */
export const AUTH_ECHO_TEXT = 'signed in';
/** One request of the scene may wait this long for its answer (a slow machine's authorization server). */
const REQUEST_TIMEOUT_MS = 120_000;

export type AuthSceneStatus =
  | { status: 'idle' }
  | { status: 'starting' }
  | { status: 'stepping'; kind: AuthStepKind }
  | { status: 'ready' }
  /** The consent page is shown: the person decides (decide()). */
  | { status: 'consent' }
  | { status: 'done' }
  /** The scene itself could not run (no server, the host refused): not a card's symptom. */
  | { status: 'failed'; reason: string };

/** One exchange of the flow, in the order of the wire; `conn` is its relayed connection once it opened. */
export interface AuthStep {
  kind: AuthStepKind;
  method: string;
  /** The URL's path and query, as the request line has it. */
  target: string;
  /** The JSON-RPC method an MCP request carries. */
  rpc: string | null;
  status: number | null;
  conn: number | null;
}

export interface AuthFacts {
  /** The authorization server's issuer, from its metadata. */
  issuer?: string;
  /** From the authorization request. */
  challenge?: string;
  state?: string;
  resource?: string;
  scope?: string;
  /** From the redirect back, as the client received it. */
  redirect?: { code: string | null; state: string | null; iss: string | null; error: string | null };
  /** From the token request, and the challenge computed from it. */
  verifier?: string;
  challengeOfVerifier?: string;
  /** From the token response. */
  accessToken?: string;
  tokenHeader?: Record<string, unknown>;
  claims?: ClaimFact[];
}

/** How the client's work ended: what it got, or the error it reported (a card's symptom). */
export type AuthOutcome = { ok: true; result: string } | { ok: false; error: string };

export interface AuthSceneState {
  status: AuthSceneStatus;
  card: AuthCard | null;
  client: AuthClientKind;
  era: AuthEra;
  /** With the learner's code: the steps it answered so far, in order. */
  yours: readonly ClientStepName[];
  host: HostKind | null;
  /** The MCP server's URL, from the line it prints when it listens. */
  endpoint: string | null;
  steps: AuthStep[];
  /** What the next step sends, once the flow holds it. */
  next: AuthStepKind | null;
  exchanges: readonly HttpExchangeRecord<number>[];
  consent: ConsentPage | null;
  facts: AuthFacts;
  outcome: AuthOutcome | null;
}

export interface AuthSceneDeps {
  startProgram(spec: ProgramSpec): Promise<HttpWire>;
  /** The learner's exercise 8 steps in a fresh learner worker; without it only the reference drives. */
  createLearnerSteps?(): Promise<LearnerAuthSteps> | LearnerAuthSteps;
  /** The page's language, which the person's browser sends (the consent page answers in it). */
  language?(): string;
  /** Seconds since 1970, for the token's `exp` (tests fix it). */
  now?(): number;
}

const INITIAL: AuthSceneState = { status: { status: 'idle' }, card: null, client: 'reference', era: 'handshake', yours: [], host: null, endpoint: null, steps: [], next: null, exchanges: [], consent: null, facts: {}, outcome: null };

interface Running {
  wire: HttpWire;
  learner: LearnerAuthSteps | null;
  stepped: SteppedExchange;
  finished: boolean;
  consent: ((decision: ConsentDecision) => void) | null;
}

export class AuthSceneStore extends ExternalStore<AuthSceneState> {
  protected readonly store: Store<AuthSceneState> = createStore<AuthSceneState>(INITIAL);
  private running: Running | null = null;
  private run = 0;
  private recorder = new HttpExchangeRecorder<number>();
  private events: TapEvent[] = [];
  private started: string | null = null;
  /** The authorization server's userinfo endpoint, read from its metadata as it crossed the wire (the deputy card's "other API"). */
  private userinfoEndpoint: string | null = null;
  /** Wakes a step waiting for the flow to hold its next request, ask for consent, or end. */
  private wake: (() => void) | null = null;

  constructor(private readonly deps: AuthSceneDeps) {
    super();
    // PKCE's S256 on a page that is no secure context (a workshop's plain http:// over a LAN).
    provideDigest();
  }

  /** Start over, as the main scene or as a failure card. */
  restart(card: AuthCard | null = this.getSnapshot().card): void {
    this.run++;
    this.running?.wire.kill();
    this.running?.learner?.dispose();
    this.running = null;
    this.recorder = new HttpExchangeRecorder<number>();
    this.events = [];
    this.started = null;
    this.userinfoEndpoint = null;
    this.wake?.();
    this.store.setState({ ...INITIAL, card, client: this.getSnapshot().client, era: this.getSnapshot().era });
  }

  /** Choose the era of the session behind the sign-in; the scene starts over. */
  setEra(era: AuthEra): void {
    if (era === this.getSnapshot().era) return;
    this.update({ era });
    this.restart();
  }

  /** Choose who writes the client's steps; the scene starts over. */
  setClient(client: AuthClientKind): void {
    if (client === 'learner' && !this.deps.createLearnerSteps) return;
    if (client === this.getSnapshot().client) return;
    this.update({ client });
    this.restart();
  }

  /** Let the next request of the flow go; resolves once its answer arrived and the flow moved on. */
  async step(): Promise<void> {
    const { status } = this.getSnapshot();
    if (status.status === 'stepping' || status.status === 'starting' || status.status === 'consent' || status.status === 'done' || status.status === 'failed') return;
    const run = this.run;
    const running = this.running ?? (await this.start(run));
    if (running === null || run !== this.run) return;
    await this.settle(running);
    if (run !== this.run || this.getSnapshot().status.status !== 'ready') return;
    const next = running.stepped.next;
    if (next === null) return;
    const url = new URL(next.request.url);
    this.update({
      status: { status: 'stepping', kind: next.kind },
      next: null,
      steps: [...this.getSnapshot().steps, { kind: next.kind, method: next.request.method, target: url.pathname + url.search, rpc: rpcMethod(next.request), status: null, conn: null }],
    });
    const index = this.getSnapshot().steps.length - 1;
    let answered: number | null = null;
    try {
      answered = (await running.stepped.step()).status;
    } catch {
      // The request failed without an answer: the flow reports it as its outcome.
    }
    if (run !== this.run) return;
    this.update({ steps: this.getSnapshot().steps.map((step, at) => (at === index ? { ...step, status: answered } : step)) });
    await this.settle(running);
  }

  /** Step to the end; at the consent page, `allow` answers for the person (a card's run), else it stops there. */
  async runToEnd(options: { allow?: boolean } = {}): Promise<void> {
    const run = this.run;
    for (let guard = 0; guard < 200 && run === this.run; guard++) {
      const { status } = this.getSnapshot();
      if (status.status === 'done' || status.status === 'failed') return;
      if (status.status === 'consent') {
        if (!options.allow) return;
        this.decide('allow');
        continue;
      }
      await this.step();
    }
  }

  /** The person's choice on the consent page. */
  decide(decision: ConsentDecision): void {
    const answer = this.running?.consent;
    if (answer === null || answer === undefined || this.getSnapshot().status.status !== 'consent') return;
    this.running!.consent = null;
    this.update({ consent: null, status: { status: 'ready' } });
    answer(decision);
  }

  /** The scene's exchanges as the trace format's HTTP recording wants them; null before any event. */
  recording(): { started: string; host: string; program: string[]; events: TapEvent[] } | null {
    if (this.started === null || this.events.length === 0) return null;
    return { started: this.started, host: this.getSnapshot().host ?? 'bridge', program: ['mcp-http', '--auth=self'], events: [...this.events] };
  }

  private async start(run: number): Promise<Running | null> {
    this.update({ status: { status: 'starting' } });
    let wire: HttpWire;
    let endpoint: string;
    try {
      wire = await this.deps.startProgram(AUTH_PROGRAM);
      if (run !== this.run) {
        wire.kill();
        return null;
      }
      this.started = new Date().toISOString();
      this.update({ host: wire.host });
      const printed = new Promise<string>((resolve, reject) => {
        let stdout = '';
        wire.onTapEvent((event) => {
          if (run !== this.run) return;
          this.record(event);
          if (event.ev === 's2c' && event.conn === undefined && !stdout.includes('\n')) {
            stdout += new TextDecoder().decode(base64ToBytes(event.b64));
            if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')).trim());
          }
        });
        wire.onClose((reason) => reject(new Error(reason ?? 'the server stopped before it listened')));
      });
      endpoint = await printed;
      if (!/^http:\/\/127\.0\.0\.1:\d+\/mcp$/.test(endpoint)) throw new Error(`the server printed no MCP URL: ${endpoint}`);
    } catch (error) {
      if (run === this.run) this.update({ status: { status: 'failed', reason: error instanceof Error ? error.message : String(error) } });
      return null;
    }
    if (run !== this.run) return null;
    this.update({ endpoint });
    const card = this.getSnapshot().card;
    let learner: LearnerAuthSteps | null = null;
    if (this.getSnapshot().client === 'learner') {
      learner = (await this.deps.createLearnerSteps?.()) ?? null;
      if (run !== this.run) {
        learner?.dispose();
        return null;
      }
    }
    const stepped = new SteppedExchange(this.observed(run, endpoint, wire.exchange), endpoint);
    const running: Running = { wire, learner, stepped, finished: false, consent: null };
    this.running = running;
    // The flow's requests are held in `stepped`; each one wakes the step that waits for it.
    const held: HttpExchange = (request) => {
      const answer = stepped.exchange(request);
      this.wake?.();
      return answer;
    };
    const exchange = authorizingExchange({
      exchange: held,
      endpoint,
      redirectUri: AUTH_REDIRECT_URI,
      identity: { clientName: AUTH_CLIENT_NAME, wantsRefresh: false },
      ...(learner === null ? {} : { steps: learner }),
      redirect: async (url) => {
        const back = alterRedirect(card, await browseToRedirect(held, url, (page) => this.askConsent(run, running, page), { acceptLanguage: this.deps.language?.() }));
        if (run === this.run) this.noteRedirect(back);
        return back;
      },
    });
    void this.script(run, running, exchange, endpoint, held, card);
    this.update({ status: { status: 'ready' } });
    return running;
  }

  /** What the client does: sign in (its first request, initialize or server/discover), then the card's one thing. */
  private async script(run: number, running: Running, exchange: AuthorizingExchange, endpoint: string, held: HttpExchange, card: AuthCard | null): Promise<void> {
    const client = this.getSnapshot().era === 'modern' ? modernClient(endpoint, exchange) : handshakeClient(endpoint, exchange);
    let outcome: AuthOutcome;
    try {
      await client.connect();
      const next = afterSignIn(card);
      if (next === 'pass-on') {
        // The token this server was given, sent on to another API by a server that should not.
        const token = exchange.current()!.tokens.accessToken;
        const userinfo = this.userinfoEndpoint ?? new URL('/me', endpoint).href;
        const response = await held({ method: 'GET', url: userinfo, headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
        response.cancel();
        outcome = response.status === 200 ? { ok: true, result: `${response.status}` } : { ok: false, error: `${response.status} ${headerValue(response.headers, 'www-authenticate') ?? ''}`.trim() };
      } else {
        const result = next === 'delete' ? await client.callTool('delete_file', { path: '/tmp/notes.txt' }) : await client.callTool('echo', { text: AUTH_ECHO_TEXT });
        const text = result.content.map((part) => (part.type === 'text' ? part.text : part.type)).join(' ');
        outcome = result.isError === true ? { ok: false, error: text } : { ok: true, result: text };
      }
    } catch (error) {
      outcome = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    running.finished = true;
    if (run !== this.run) return;
    this.update({ outcome });
    this.wake?.();
  }

  private askConsent(run: number, running: Running, page: ConsentPage): Promise<ConsentDecision> {
    return new Promise((resolve) => {
      if (run !== this.run) return;
      running.consent = resolve;
      this.update({ consent: page });
      this.wake?.();
    });
  }

  /**
   * Waits until the flow holds its next request, asks for consent, or ends, and says which. The
   * flow moves on by itself between requests (it reads an answer, computes, sends the next).
   */
  private async settle(running: Running): Promise<void> {
    const run = this.run;
    for (;;) {
      if (run !== this.run) return;
      if (running.learner !== null && running.learner.answered.length !== this.getSnapshot().yours.length) this.update({ yours: [...running.learner.answered] });
      if (running.consent !== null) return this.update({ status: { status: 'consent' }, next: null });
      const next = running.stepped.next;
      if (next !== null) return this.update({ status: { status: 'ready' }, next: next.kind });
      if (running.finished) {
        running.wire.kill();
        running.learner?.dispose();
        return this.update({ status: { status: 'done' }, next: null });
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }

  /** The wire's exchange, altered as the card says, with what the scene reads off each request and answer. */
  private observed(run: number, endpoint: string, inner: HttpExchange): HttpExchange {
    const card = this.getSnapshot().card;
    return async (original: HttpClientRequest): Promise<HttpClientResponse> => {
      const request = alterRequest(card, original);
      const noted = run === this.run;
      if (noted && isAuthorizationRequest(request)) {
        const query = new URL(request.url).searchParams;
        this.updateFacts({ challenge: query.get('code_challenge') ?? undefined, state: query.get('state') ?? undefined, resource: query.get('resource') ?? undefined, scope: query.get('scope') ?? undefined, redirect: undefined, verifier: undefined, challengeOfVerifier: undefined });
      }
      const form = tokenForm(request);
      const verifier = form?.get('code_verifier');
      if (noted && verifier) this.updateFacts({ verifier, challengeOfVerifier: await codeChallengeS256(verifier) });
      const response = await inner(request);
      const wellKnown = new URL(request.url).pathname.startsWith('/.well-known/');
      if (!(form !== null || wellKnown) || response.status !== 200) return response;
      // A JSON answer the scene reads: read it whole, and hand the client the same bytes.
      const chunks: Uint8Array[] = [];
      for await (const chunk of response.body) chunks.push(chunk);
      const bytes = concatBytes(chunks);
      if (run === this.run) this.readJson(bytes, form !== null, endpoint);
      return { ...response, body: once(bytes) };
    };
  }

  private readJson(bytes: Uint8Array, isToken: boolean, endpoint: string): void {
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return;
    }
    if (typeof json !== 'object' || json === null) return;
    const record = json as Record<string, unknown>;
    if (typeof record.userinfo_endpoint === 'string') this.userinfoEndpoint = record.userinfo_endpoint;
    if (typeof record.issuer === 'string' && typeof record.authorization_endpoint === 'string') this.updateFacts({ issuer: record.issuer });
    if (!isToken || typeof record.access_token !== 'string') return;
    const reading = readJwt(record.access_token);
    const now = this.deps.now?.() ?? Math.floor(Date.now() / 1000);
    this.updateFacts({
      accessToken: record.access_token,
      ...(reading.ok
        ? { tokenHeader: reading.header, claims: accessTokenFacts(reading.claims, { resource: endpoint, issuer: new URL(endpoint).origin, now, scopes: ['tools:read'] }) }
        : { tokenHeader: undefined, claims: undefined }),
    });
  }

  private noteRedirect(url: string): void {
    const query = new URL(url).searchParams;
    this.updateFacts({ redirect: { code: query.get('code'), state: query.get('state'), iss: query.get('iss'), error: query.get('error') } });
  }

  /** One tap event: the relayed connections become exchanges, each tied to the step that opened it. */
  private record(event: TapEvent): void {
    this.events.push(event);
    if (!('conn' in event) || event.conn === undefined) return;
    const conn = event.conn;
    const steps = this.getSnapshot().steps;
    const index = steps.findIndex((step) => step.conn === conn);
    const opening = index === -1 ? steps.findLastIndex((step) => step.conn === null) : index;
    const exchanges = this.recorder.add(event.ev === 'c2s' || event.ev === 's2c' ? { conn, ev: event.ev, bytes: base64ToBytes(event.b64) } : { conn, ev: event.ev === 'open' ? 'open' : 'close' }, opening === -1 ? null : opening);
    this.update({ exchanges, ...(index === -1 && opening !== -1 ? { steps: steps.map((step, at) => (at === opening ? { ...step, conn } : step)) } : {}) });
  }

  private updateFacts(patch: Partial<AuthFacts>): void {
    const facts = { ...this.getSnapshot().facts, ...patch };
    for (const key of Object.keys(patch) as (keyof AuthFacts)[]) if (patch[key] === undefined) delete facts[key];
    this.update({ facts });
  }

  private update(patch: Partial<AuthSceneState>): void {
    this.store.setState((state) => ({ ...state, ...patch }));
  }
}

function rpcMethod(request: HttpClientRequest): string | null {
  if (request.body === undefined) return null;
  const match = /"method"\s*:\s*"([^"]+)"/.exec(new TextDecoder().decode(request.body));
  return match?.[1] ?? null;
}

interface SceneClient {
  connect(): Promise<unknown>;
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
}

function handshakeClient(endpoint: string, exchange: HttpExchange): SceneClient {
  return new McpClient(new HttpClientTransport({ url: endpoint, exchange, listen: false }), { framing: 'ndjson', requestTimeoutMs: REQUEST_TIMEOUT_MS });
}

/** The dual-era client pinned to 2026-07-28: server/discover first, no session. */
function modernClient(endpoint: string, exchange: HttpExchange): SceneClient {
  const transports = { kind: 'http' as const, modern: new ModernHttpClientTransport({ url: endpoint, exchange }), legacy: () => new HttpClientTransport({ url: endpoint, exchange, listen: false }) };
  return new DualEraClient(transports, { era: { pin: MODERN_PROTOCOL_VERSION }, requestTimeoutMs: REQUEST_TIMEOUT_MS });
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  if (bytes.length > 0) yield bytes;
}
