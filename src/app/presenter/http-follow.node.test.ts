import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkerHttpWire } from '../../../tests/support/http-worker-wire.ts';
import { HttpSessionStore } from '../protocol/http-session-store.ts';
import { FollowStore, isHttpState, PresenterBroadcaster, type ChannelLike } from './follow-channel.ts';
import { decodeFollowMessage, FOLLOW_PROTOCOL } from './follow-message.ts';
import { httpFollowStateOf, type HttpFollowState } from './http-follow.ts';

// A real HTTP session (the mcp-http handler on the worker host, in Node), so the state checked is
// what the presenter really sends, chunk boundaries and all.
let store: HttpSessionStore;
let state: HttpFollowState;
let callConn: number;

beforeAll(async () => {
  store = new HttpSessionStore({ startProgram: (spec) => startWorkerHttpWire(spec) });
  await store.runToEnd();
  callConn = store.getSnapshot().exchanges.find((exchange) => exchange.request === 'POST tools/call')!.conn;
  state = httpFollowStateOf(store.getSnapshot(), callConn, 'zh-CN');
}, 20_000);

afterAll(() => store.restart());

const message = () => ({ type: 'http-state', protocol: FOLLOW_PROTOCOL, presenter: 'p1', state: structuredClone(state) });

function mutated(path: string, value: unknown) {
  const copy = message();
  const keys = path.split('.');
  let node = copy.state as unknown as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  if (value === undefined) delete node[keys.at(-1)!];
  else node[keys.at(-1)!] = value;
  return copy;
}

describe('the HTTP stepper’s follow state', () => {
  it('carries every connection of a real session, chunk by chunk as the tap reported them, and what the client holds', () => {
    const session = store.getSnapshot();
    expect(state).toMatchObject({ transport: 'http', cursor: 5, total: 5, status: { status: 'done' }, host: 'worker', open: callConn, language: 'zh-CN' });
    expect(state.exchanges.map((exchange) => `${exchange.request} → ${exchange.status}`)).toEqual(session.exchanges.map((exchange) => `${exchange.request} → ${exchange.status}`));
    expect(state.exchanges.map((exchange) => `${exchange.request} → ${exchange.status}`)).toEqual(expect.arrayContaining(['POST initialize → 200', 'POST notifications/initialized → 202', 'GET → 200', 'POST tools/call → 200', 'DELETE → 200']));
    state.exchanges.forEach((exchange, index) => {
      expect(exchange.s2c.map((chunk) => chunk.length)).toEqual(session.exchanges[index]!.s2c.map((chunk) => chunk.length));
      expect(Buffer.concat(exchange.c2s)).toEqual(Buffer.concat(session.exchanges[index]!.c2s));
    });
    expect(state.progress.length).toBeGreaterThan(0);
    expect(state.holds.sessionId).toBeNull();
  });

  it('passes the check after a structured clone (what BroadcastChannel delivers), bytes intact', () => {
    const decoded = decodeFollowMessage(structuredClone(message()));
    expect(decoded?.type).toBe('http-state');
    if (decoded?.type !== 'http-state') return;
    const call = decoded.state.exchanges.find((exchange) => exchange.conn === callConn)!;
    expect(new TextDecoder().decode(Buffer.concat(call.s2c))).toContain('"method":"notifications/progress"');
    expect(decoded.state).toEqual(state);
  });

  it.each([
    ['transport', 'stdio'],
    ['era', 'future'],
    // The handshake session's five steps claimed to be 2026-07-28's three.
    ['era', 'modern'],
    ['cursor', 6],
    ['total', 9],
    ['status', { status: 'stepping', step: 'dance' }],
    ['status', { status: 'failed' }],
    ['status', { status: 'failed', reason: 'x', why: { code: 'wire-timeout', seconds: 3, step: 'dance' } }],
    ['status', { status: 'failed', reason: 'x', why: { code: 'session-ended', extra: '<b>' } }],
    ['host', 'mainframe'],
    ['exchanges.0.c2s', [[80, 79]]],
    ['exchanges.0.status', -1],
    ['exchanges.0.step', 'launch'],
    ['exchanges.0.extra', { nested: true }],
    ['holds.openStreams', -1],
    ['holds.pending', [{ id: 1.5, method: 'x' }]],
    ['progress', [1]],
    ['progress', ['0/1 started']],
    ['progress.0.message', 1],
    ['open', 999],
    ['language', 'fr'],
  ])('ignores a state whose %s is wrong', (path, value) => {
    expect(decodeFollowMessage(message())).not.toBeNull();
    expect(decodeFollowMessage(mutated(path, value))).toBeNull();
  });

  it("takes a stop with the stepper's own reason code, which the follow view words in its language", () => {
    expect(decodeFollowMessage(mutated('status', { status: 'failed', reason: 'x', why: { code: 'wire-timeout', seconds: 0.5, step: 'listen' } }))).not.toBeNull();
    expect(decodeFollowMessage(mutated('status', { status: 'failed', reason: 'x', why: { code: 'session-ended' } }))).not.toBeNull();
  });

  it('ignores a state whose connections do not agree with each other (two with one number)', () => {
    expect(decodeFollowMessage(mutated('exchanges.1.conn', state.exchanges[0]!.conn))).toBeNull();
  });

  it('reaches a follow view over a real BroadcastChannel, as its own kind of state', async () => {
    const channels = [new BroadcastChannel('http-follow-test'), new BroadcastChannel('http-follow-test')] as unknown as ChannelLike[];
    const follow = new FollowStore(channels[0]!);
    const broadcaster = new PresenterBroadcaster({ channel: channels[1]!, presenterId: 'p1', state: () => state, subscribe: () => () => {}, delayMs: 1 });
    follow.start();
    broadcaster.start();
    await new Promise<void>((resolve) => {
      const stop = follow.subscribe(() => {
        if (follow.getSnapshot().status === 'following') {
          stop();
          resolve();
        }
      });
    });
    const view = follow.getSnapshot();
    expect(view.status === 'following' && isHttpState(view.state) && view.state.exchanges.length).toBe(state.exchanges.length);
    broadcaster.stop();
    follow.stop();
  });
});

describe('the follow state of a 2026-07-28 session', () => {
  it('carries its era and its three POSTs, and passes the check', async () => {
    const modern = new HttpSessionStore({ startProgram: (spec) => startWorkerHttpWire(spec) });
    modern.setEra('modern');
    try {
      await modern.runToEnd();
      const followed = httpFollowStateOf(modern.getSnapshot(), null, 'en');
      expect(followed).toMatchObject({ era: 'modern', cursor: 3, total: 3, status: { status: 'done' } });
      expect(followed.exchanges.map((exchange) => exchange.request)).toEqual(['POST server/discover', 'POST tools/list', 'POST tools/call']);
      const decoded = decodeFollowMessage(structuredClone({ type: 'http-state', protocol: FOLLOW_PROTOCOL, presenter: 'p1', state: followed }));
      expect(decoded?.type).toBe('http-state');
    } finally {
      modern.restart();
    }
  });
});
