// The authorization scene's store against the real servers on the bridge: mcp-http with its own
// authorization server (oidc-provider, `auth: "self"`), the page's HTTP/1.1 client over the relay
// (every exchange in the tap's events), the reference client signing in one exchange per step, each
// named from its request alone, in the order of the wire; the consent decided as the person would;
// either era; the learner's exercise 8 file writing the steps; and each failure card's symptom,
// read from what crossed the wire.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthSceneStore, AUTH_ECHO_TEXT, type AuthSceneState } from '../../src/app/protocol/auth-scene-store.ts';
import { ANOTHER_ISSUER, ANOTHER_RESOURCE, type AuthCard } from '../../src/app/protocol/auth-cards.ts';
import { redactEvents } from '../../src/app/protocol/auth-redaction.ts';
import type { HttpWire } from '../../src/runtime/http-tap-wire.ts';
import { base64ToBytes } from '../../src/protocol/base64.ts';
import { exchangesOf } from '../support/http1-items.ts';
import { readFile } from 'node:fs/promises';
import { RECORDED_AUTH_TRACE } from '../support/record-auth-trace.ts';
import { traceHash } from '../../src/app/trace/trace-link.ts';
import type { TapEvent } from '../../src/runtime/tap-protocol.ts';
import { buildProgramsForTest, pageHost, startTestBridge, type TestBridge } from './ws-tap-transport.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { closeLearnerChannels, learnerWorkerFactory, protocolModules } from '../../tools/testing/learner-worker-channel.ts';
import { learnerAuthSteps } from '../../src/app/protocol/learner-auth-steps.ts';
import { CLIENT_STEP_NAMES } from '../../src/protocol/auth/client-steps.ts';

let programs: { dir: string; remove(): Promise<void> };
let bridge: TestBridge;

beforeAll(async () => {
  programs = await buildProgramsForTest();
  bridge = await startTestBridge({ programsDir: programs.dir });
}, 120_000);
afterAll(async () => {
  await bridge?.close();
  await programs.remove();
});
let store: AuthSceneStore | null = null;
afterEach(() => {
  store?.restart();
  closeLearnerChannels();
});

function newStore(learnerCode?: string): AuthSceneStore {
  const host = pageHost(bridge);
  store = new AuthSceneStore({
    startProgram: async (spec) => (await host.start(spec)) as HttpWire,
    ...(learnerCode === undefined ? {} : { createLearnerSteps: async () => learnerAuthSteps({ code: learnerCode, file: 'authorization-client.ts', moduleId: '@protocol/auth/authorization-client' }, learnerWorkerFactory(await protocolModules())) }),
  });
  if (learnerCode !== undefined) store.setClient('learner');
  return store;
}

const line = (state: AuthSceneState) => state.steps.map((step) => `${step.kind} ${step.status}`);

it('signs in one exchange per step, stops at the consent page for the person, and reads PKCE, the redirect and the token', async () => {
  const scene = newStore();
  // Stepping stops at the consent page: the person decides, not Run to end.
  await scene.runToEnd();
  let state = scene.getSnapshot();
  expect(state.status.status).toBe('consent');
  expect(state.consent?.html).toContain('MCP Playground');
  expect(line(state)).toEqual(['mcp 401', 'resource-metadata 200', 'server-metadata 200', 'registration 201', 'authorization 303', 'browser 303', 'browser 303', 'browser 200']);
  // Each step is one relayed connection, tied to it.
  expect(new Set(state.steps.map((step) => step.conn)).size).toBe(state.steps.length);
  expect(state.steps.every((step) => state.exchanges.some((exchange) => exchange.conn === step.conn && exchange.step === state.steps.indexOf(step)))).toBe(true);
  expect(state.facts.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(state.steps.find((step) => step.kind === 'authorization')?.target).toMatch(/^\/auth\?.*code_challenge_method=S256/);
  expect(state.facts.verifier).toBeUndefined(); // the verifier stays with the client until the token request

  scene.decide('allow');
  await scene.runToEnd();
  state = scene.getSnapshot();
  expect(state.status.status).toBe('done');
  expect(state.outcome).toEqual({ ok: true, result: AUTH_ECHO_TEXT });
  expect(line(state).slice(8)).toEqual(['consent 303', 'browser 303', 'token 200', 'mcp 200', 'mcp 202', 'mcp 200']);
  const { facts, endpoint } = state;
  expect(facts.challengeOfVerifier).toBe(facts.challenge);
  expect(facts.redirect?.state).toBe(facts.state);
  expect(facts.redirect?.iss).toBe(new URL(endpoint!).origin);
  expect(facts.redirect?.code).toMatch(/./);
  expect(facts.resource).toBe(endpoint);
  expect(facts.tokenHeader).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
  expect(facts.claims?.map((fact) => `${fact.claim} ${fact.verdict}`)).toEqual(['aud ok', 'iss ok', 'exp ok', 'scope ok']);

  // The saved trace hides every secret: no token, code or verifier in it, the bytes the same length.
  const recording = scene.recording()!;
  const redacted = redactEvents(recording.events);
  const text = (events: typeof redacted) => events.map((event) => ('b64' in event ? new TextDecoder().decode(base64ToBytes(event.b64)) : '')).join('');
  expect(text(recording.events)).toContain(facts.accessToken!);
  for (const secret of [facts.accessToken!, facts.verifier!, facts.redirect!.code!]) expect(text(redacted)).not.toContain(secret);
  expect(text(redacted).length).toBe(text(recording.events).length);
}, 120_000);

it('in 2026-07-28 the sign-in is the same, met by server/discover instead of initialize, and no session follows', async () => {
  const scene = newStore();
  scene.setEra('modern');
  await scene.runToEnd({ allow: true });
  const state = scene.getSnapshot();
  expect(state.outcome).toEqual({ ok: true, result: AUTH_ECHO_TEXT });
  expect(state.steps.filter((step) => step.kind === 'mcp').map((step) => `${step.rpc} ${step.status}`)).toEqual(['server/discover 401', 'server/discover 200', 'tools/call 200']);
  expect(line(state).slice(1, -2)).toEqual(['resource-metadata 200', 'server-metadata 200', 'registration 201', 'authorization 303', 'browser 303', 'browser 303', 'browser 200', 'consent 303', 'browser 303', 'token 200']);
  expect(exchangesOf(wireEvents()).some((found) => found.response?.head.headers['mcp-session-id'] !== undefined)).toBe(false);
}, 120_000);

it('Deny sends the person back with access_denied, and the client reports it', async () => {
  const scene = newStore();
  await scene.runToEnd();
  scene.decide('deny');
  await scene.runToEnd();
  const state = scene.getSnapshot();
  expect(state.status.status).toBe('done');
  expect(state.facts.redirect?.error).toBe('access_denied');
  expect(state.outcome?.ok).toBe(false);
  expect(line(state).at(-1)).toBe('browser 303');
}, 120_000);

it('the sign-in recorded for the worker host is a fresh run, exchange for exchange, its secrets hidden, small enough for a link', async () => {
  const scene = newStore();
  await scene.runToEnd({ allow: true });
  const fresh = exchangesOf(scene.getSnapshot().status.status === 'done' ? wireEvents() : []).map((found) => `${found.line} ${found.response?.head.status}`);
  expect(fresh.length).toBeGreaterThan(10);
  const text = await readFile(RECORDED_AUTH_TRACE, 'utf8');
  const [header, ...lines] = text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(header).toMatchObject({ mode: 'http', program: ['mcp-http', '--auth=self'] });
  const events = lines as unknown as TapEvent[];
  // Stale after a change to the flow? `npm run --silent record-auth-trace`.
  expect(exchangesOf(events).map((found) => `${found.line} ${found.response?.head.status}`)).toEqual(fresh);
  const bytes = events.map((event) => ('b64' in event && event.conn !== undefined ? Buffer.from(event.b64, 'base64').toString('latin1') : '')).join('');
  expect(bytes).toMatch(/"access_token":"\*{100,}"/);
  expect(bytes).toMatch(/code_verifier=\*{43}/);
  expect(bytes).not.toMatch(/eyJ[\w-]{10,}\.[\w-]{10,}\./); // no JWT left whole
  expect(await traceHash(text)).not.toBeNull();
}, 120_000);

describe("with the learner's exercise 8 file writing the client's steps (in the learner worker)", () => {
  const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');

  it('a correct file signs in: every one of its steps answered, the same exchanges as the reference', async () => {
    const scene = newStore(read('src/protocol/auth/authorization-client.ts'));
    await scene.runToEnd({ allow: true });
    const state = scene.getSnapshot();
    expect(state.outcome).toEqual({ ok: true, result: AUTH_ECHO_TEXT });
    expect([...new Set(state.yours)].sort()).toEqual([...CLIENT_STEP_NAMES].sort());
    expect(line(state)).toEqual(['mcp 401', 'resource-metadata 200', 'server-metadata 200', 'registration 201', 'authorization 303', 'browser 303', 'browser 303', 'browser 200', 'consent 303', 'browser 303', 'token 200', 'mcp 200', 'mcp 202', 'mcp 200']);
    expect(state.facts.challengeOfVerifier).toBe(state.facts.challenge);
  }, 120_000);

  it("the starter stops at its first step, naming it and the line in the learner's file", async () => {
    const scene = newStore(read('exercises/08-authorization/starter.ts'));
    await scene.runToEnd({ allow: true });
    const state = scene.getSnapshot();
    expect(line(state)).toEqual(['mcp 401']);
    expect(state.outcome).toMatchObject({ ok: false, error: expect.stringMatching(/your protectedResourceMetadataUrls \(authorization-client\.ts:\d+\): TODO/) });
  }, 120_000);

  it('a file that skips the iss check lets the mix-up through to a token request: the card the check exists for', async () => {
    const reference = read('src/protocol/auth/authorization-client.ts');
    // The learner's codeFromRedirect that reads the code and checks nothing else.
    const careless = `${reference.replace(/export \{ authorizationUrl, codeFromRedirect \} from '\.\/authorization-request\.ts';/, "export { authorizationUrl } from './authorization-request.ts';")}
export function codeFromRedirect(redirect: string): string {
  return new URL(redirect).searchParams.get('code') ?? '';
}
`;
    expect(careless).not.toBe(reference);
    const scene = newStore(careless);
    scene.restart('mix-up');
    await scene.runToEnd({ allow: true });
    const state = scene.getSnapshot();
    expect(state.facts.redirect?.iss).toBe(ANOTHER_ISSUER);
    expect(state.steps.some((step) => step.kind === 'token')).toBe(true);
  }, 120_000);
});

describe('the failure cards, each run to its end against the real servers', () => {
  async function runCard(card: AuthCard): Promise<AuthSceneState> {
    const scene = newStore();
    scene.restart(card);
    await scene.runToEnd({ allow: true });
    const state = scene.getSnapshot();
    expect(state.status.status).toBe('done');
    return state;
  }

  it('audience: a token for another MCP server is refused with 401 invalid_token', async () => {
    const state = await runCard('audience');
    expect(state.facts.claims?.find((fact) => fact.claim === 'aud')).toMatchObject({ value: ANOTHER_RESOURCE, verdict: 'another-audience' });
    const withToken = exchangesOf(wireEvents()).filter((found) => found.request.headers.authorization?.startsWith('Bearer '));
    expect(withToken.length).toBeGreaterThan(0);
    expect(withToken.every((found) => found.response?.head.status === 401 && /invalid_token/.test(found.response.head.headers['www-authenticate'] ?? ''))).toBe(true);
    expect(state.outcome?.ok).toBe(false);
  }, 120_000);

  it('no-pkce: the authorization server sends the person back with invalid_request, and no token is asked for', async () => {
    const state = await runCard('no-pkce');
    expect(state.facts.redirect?.error).toBe('invalid_request');
    expect(state.steps.some((step) => step.kind === 'token')).toBe(false);
    expect(state.outcome).toMatchObject({ ok: false, error: expect.stringMatching(/PKCE/i) });
  }, 120_000);

  it('step-up: delete_file meets 403 insufficient_scope, the client asks again with tools:write, and the call succeeds', async () => {
    const state = await runCard('step-up');
    const calls = exchangesOf(wireEvents()).filter((found) => found.line === 'POST tools/call');
    expect(calls.map((found) => found.response?.head.status)).toEqual([403, 200]);
    expect(calls[0]!.response!.head.headers['www-authenticate']).toMatch(/insufficient_scope/);
    expect(state.facts.scope?.split(' ')).toContain('tools:write');
    expect(state.steps.filter((step) => step.kind === 'token')).toHaveLength(2);
    // Two consents: the first sign-in (tools:read), the step-up (tools:write as well).
    expect(state.steps.filter((step) => step.kind === 'consent')).toHaveLength(2);
    expect(state.outcome?.ok).toBe(true);
  }, 120_000);

  it('mix-up: a redirect naming another issuer is refused before any token request', async () => {
    const state = await runCard('mix-up');
    expect(state.facts.redirect?.iss).toBe(ANOTHER_ISSUER);
    expect(state.steps.some((step) => step.kind === 'token')).toBe(false);
    expect(state.outcome).toMatchObject({ ok: false, error: expect.stringContaining(ANOTHER_ISSUER) });
  }, 120_000);

  it('deputy: the token passed on to another API is refused there', async () => {
    const state = await runCard('deputy');
    const last = state.steps.at(-1)!;
    expect(last.kind).toBe('passed-on');
    expect(last.status).toBe(401);
    expect(state.outcome?.ok).toBe(false);
  }, 120_000);
});

/** What crossed the wire in the last store's run. */
function wireEvents() {
  return store!.recording()!.events;
}
