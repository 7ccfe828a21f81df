// Follow mode across devices, end to end in Node: a real presenter's broadcaster posts through
// RoomFollowPoster to a real room on loopback, and a follow store on "another device" (no shared
// BroadcastChannel) reads it back through RoomFollowReader — the frame's bytes included.

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom, type Room } from '../../../server/room/room.ts';
import { RoomStore } from '../../../server/room/room-store.ts';
import { openRoomDatabase } from '../../../server/room/sqlite.ts';
import { inProcessServerPort } from '../../../tools/testing/in-process-server.ts';
import { FollowStore, isHttpState, PresenterBroadcaster, type FollowViewState } from '../presenter/follow-channel.ts';
import { followStateOf, type FollowState } from '../presenter/follow-message.ts';
import { ReferenceDriver, referenceRegisterRunner } from '../protocol/reference-driver.ts';
import { StepperStore } from '../protocol/stepper-store.ts';
import { createStore } from '../store/create-store.ts';
import { RoomFollowPoster, RoomFollowReader, teeChannel, type RelayReaderStatus, type RelayStatus } from './follow-relay.ts';
import { fetchRoomKey } from './room-client.ts';

let server: Server;
let room: Room;
let origin: string;
let stepper: StepperStore;

beforeAll(async () => {
  let port = 0;
  room = createRoom({ store: new RoomStore(openRoomDatabase(':memory:')), file: ':memory:', ownOrigins: () => [`http://127.0.0.1:${port}`], joinUrls: () => [], log: () => {} });
  server = createServer((req, res) => {
    if (!room.handle(req, res)) res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  stepper = new StepperStore({ server: inProcessServerPort(), createDriver: () => new ReferenceDriver(), createRegisterRunner: () => referenceRegisterRunner, autoDelayMs: 0 });
  await stepper.runToEnd();
});

afterAll(async () => {
  stepper.dispose();
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
  room.close();
});

/** Resolves with the store's first state that passes `test` (now, or when it changes). */
/** The number of steps a follow view shows, when it follows the stdio stage. */
const shownSteps = (view: FollowViewState): number | null => (view.status === 'following' && !isHttpState(view.state) ? view.state.records.length : null);

function when<T>(store: { getSnapshot(): T; subscribe(listener: () => void): () => void }, test: (state: T) => boolean): Promise<T> {
  return new Promise((resolve) => {
    let unsubscribe: (() => void) | null = null;
    const check = () => {
      const state = store.getSnapshot();
      if (!test(state)) return false;
      unsubscribe?.();
      resolve(state);
      return true;
    };
    if (!check()) unsubscribe = store.subscribe(() => void check());
  });
}

describe('follow mode over the room', () => {
  it('shows a presenter’s stage on a device with the join code: every shown step, the open frame’s bytes, and when the presenter leaves', async () => {
    const call = stepper.getSnapshot().records.flatMap((record) => record.arrows).find((arrow) => arrow.method === 'tools/call' && arrow.kind === 'request')!;
    const source = createStore<{ cursor: number }>({ cursor: 9 });
    const stateNow = (): FollowState => followStateOf({ ...stepper.getSnapshot(), cursor: source.getSnapshot().cursor }, stepper.inspect(call.seq), 'zh-CN');
    const poster = new RoomFollowPoster({ origin });
    const broadcaster = new PresenterBroadcaster({ channel: teeChannel([poster]), presenterId: 'p1', state: stateNow, subscribe: source.subscribe, delayMs: 0 });
    // The presenter starts before its page has the key: the newest state waits, then goes.
    broadcaster.start();
    const access = await fetchRoomKey({ origin });
    poster.useKey(access!.key);

    const reader = new RoomFollowReader({ kind: 'code', code: room.joinCode }, { origin });
    const follow = new FollowStore(reader);
    follow.start();
    const shown = await when<FollowViewState>(follow, (view) => shownSteps(view) === 9);
    if (shown.status !== 'following' || isHttpState(shown.state)) throw new Error('expected the stdio stage');
    expect(shown.state.language).toBe('zh-CN');
    expect(shown.state.inspect!.bytes).toBeInstanceOf(Uint8Array);
    expect(Array.from(shown.state.inspect!.bytes)).toEqual(Array.from(stateNow().inspect!.bytes));
    expect(new TextDecoder().decode(shown.state.inspect!.bytes)).toContain('你好, MCP 👋');
    expect(follow.getSnapshot().ignored).toBe(0);

    // The presenter steps back: the device shows three steps, and the presenter sees it is followed.
    source.setState({ cursor: 3 });
    await when<FollowViewState>(follow, (view) => shownSteps(view) === 3);
    expect((await when<RelayStatus>(poster.status, (status) => status.followers === 1)).error).toBeNull();

    broadcaster.stop();
    const left = await when<FollowViewState>(follow, (view) => view.status !== 'following');
    expect(left.status).toBe('left');
    follow.stop();
  });

  it('says why the room refused a follow view, and stops asking', async () => {
    const reader = new RoomFollowReader({ kind: 'code', code: 'ZZZZZZ' }, { origin });
    const status = await when<RelayReaderStatus>(reader.status, (state) => state.status === 'refused');
    expect(status).toEqual({ status: 'refused', reason: 'that is not this room’s join code' });
    reader.close();
  });
});
