import { afterEach, describe, expect, it } from 'vitest';
import { createStore } from '../store/create-store.ts';
import { FollowStore, PresenterBroadcaster, type ChannelLike } from './follow-channel.ts';
import { FOLLOW_PROTOCOL, type FollowState } from './follow-message.ts';

// Node has the same BroadcastChannel as the browser: instances of one name in one process hear
// each other (never themselves), with structured cloning in between.
const NAME = 'follow-channel-test';
const open: ChannelLike[] = [];
const channel = (): ChannelLike => {
  const created = new BroadcastChannel(NAME) as unknown as ChannelLike;
  open.push(created);
  return created;
};
afterEach(() => {
  for (const created of open.splice(0)) {
    try {
      created.close();
    } catch {
      // already closed by the code under test
    }
  }
});

const until = async (check: () => boolean, ms = 2000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

function presenterState(cursor: number): FollowState {
  return { records: [], total: 9, status: cursor === 0 ? { status: 'idle' } : { status: 'ready' }, waiting: null, next: { kind: 'initialize' }, scenario: null, client: 'reference', server: null, inspect: null, language: 'en' };
}

function presenter(presenterId = 'p1') {
  const source = createStore({ n: 0 });
  const broadcaster = new PresenterBroadcaster({ channel: channel(), presenterId, state: () => ({ ...presenterState(source.getSnapshot().n), total: 9 + source.getSnapshot().n }), subscribe: source.subscribe, delayMs: 5 });
  return { source, broadcaster };
}

describe('the follow channel', () => {
  it('waits until a presenter speaks, then follows each change', async () => {
    const follow = new FollowStore(channel());
    follow.start();
    expect(follow.getSnapshot().status).toBe('waiting');

    const { source, broadcaster } = presenter();
    broadcaster.start();
    await until(() => follow.getSnapshot().status === 'following');
    source.setState({ n: 1 });
    await until(() => { const s = follow.getSnapshot(); return s.status === 'following' && s.state.total === 10; });
    broadcaster.stop();
    follow.stop();
  });

  it('gets the state at once when it opens after the presenter (its hello is answered)', async () => {
    const { source, broadcaster } = presenter();
    broadcaster.start();
    source.setState({ n: 4 });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const follow = new FollowStore(channel());
    follow.start();
    await until(() => { const s = follow.getSnapshot(); return s.status === 'following' && s.state.total === 13; });
    broadcaster.stop();
    follow.stop();
  });

  it('coalesces a burst of changes into few messages', async () => {
    const { source, broadcaster } = presenter();
    broadcaster.start();
    for (let n = 1; n <= 50; n++) source.setState({ n });
    await until(() => broadcaster.status.getSnapshot().sent >= 2);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(broadcaster.status.getSnapshot().sent).toBeLessThanOrEqual(3);
    broadcaster.stop();
  });

  it('ignores junk on the channel and keeps the last good picture', async () => {
    const follow = new FollowStore(channel());
    follow.start();
    const stranger = channel();
    stranger.postMessage({ type: 'state', protocol: FOLLOW_PROTOCOL, presenter: 'x', state: { records: 'lots' } });
    stranger.postMessage('hello?');
    await until(() => follow.getSnapshot().ignored === 2);
    expect(follow.getSnapshot().status).toBe('waiting');

    const { broadcaster } = presenter();
    broadcaster.start();
    await until(() => follow.getSnapshot().status === 'following');
    stranger.postMessage({ type: 'state', protocol: FOLLOW_PROTOCOL, presenter: 'x', state: { ...presenterState(0), total: -1 } });
    await until(() => follow.getSnapshot().ignored === 3);
    const shown = follow.getSnapshot();
    expect(shown.status === 'following' && shown.state.total).toBe(9);
    broadcaster.stop();
    follow.stop();
  });

  it('says when the presenter it follows has left, and not when another one does', async () => {
    const follow = new FollowStore(channel());
    follow.start();
    const first = presenter('first');
    first.broadcaster.start();
    await until(() => follow.getSnapshot().status === 'following');
    const other = presenter('other');
    other.broadcaster.start();
    await until(() => { const s = follow.getSnapshot(); return s.status === 'following' && s.presenter === 'other'; });
    first.broadcaster.stop();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(follow.getSnapshot().status).toBe('following');
    other.broadcaster.stop();
    await until(() => follow.getSnapshot().status === 'left');
    follow.stop();
  });

  it('reports a state that cannot be posted instead of throwing into the stepper', () => {
    const failing: ChannelLike = { postMessage: () => { throw new DOMException('could not be cloned', 'DataCloneError'); }, addEventListener() {}, removeEventListener() {}, close() {} };
    const broadcaster = new PresenterBroadcaster({ channel: failing, state: () => presenterState(0), subscribe: () => () => {} });
    expect(() => broadcaster.start()).not.toThrow();
    expect(broadcaster.status.getSnapshot()).toEqual({ sent: 0, error: 'DataCloneError: could not be cloned' });
    broadcaster.stop();
  });
});
