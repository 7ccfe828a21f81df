// Follow mode across devices: the room on the shared bridge relays the presenter's follow messages
// (server/room/room.ts, POST and GET /__room/follow), so a projector or an attendee's laptop
// follows as a tab of the presenter's own browser does. Both ends are ChannelLike, the shape the
// BroadcastChannel has, so the broadcaster and the follow store do not know which they talk to;
// `teeChannel` lets a page use the tab channel and the room at once.

import { createStore, type Store } from '../store/create-store.ts';
import { keepReading, postFollow, readFollowStream, type FollowAuth, type RoomFetchDeps } from './room-client.ts';
import type { ChannelLike } from '../presenter/follow-channel.ts';
import type { FollowMessage } from '../presenter/follow-message.ts';
import { decodeFollowWire, encodeFollowWire } from '../presenter/follow-wire.ts';

type Listener = (event: MessageEvent) => void;

/** Posting on all of `channels`, hearing from all of them. */
export function teeChannel(channels: readonly ChannelLike[]): ChannelLike {
  return {
    postMessage: (message) => channels.forEach((channel) => channel.postMessage(message)),
    addEventListener: (type, listener) => channels.forEach((channel) => channel.addEventListener(type, listener)),
    removeEventListener: (type, listener) => channels.forEach((channel) => channel.removeEventListener(type, listener)),
    close: () => channels.forEach((channel) => channel.close()),
  };
}

export interface RelayStatus {
  /** Posting: the room answered the last message (with how many follow views read it), or why not. Null before the first answer. */
  followers: number | null;
  error: string | null;
}

/**
 * The presenter's end. It holds only the newest message: a step changes the state many times, and
 * a follow view needs the last picture, not each one. One request at a time; while the room is away
 * (a bridge restart) the newest message is posted again with a growing pause until it answers, so
 * follow views get the stage back without the presenter pressing a key.
 */
export class RoomFollowPoster implements ChannelLike {
  readonly status: Store<RelayStatus> = createStore<RelayStatus>({ followers: null, error: null });
  private key: string | null = null;
  private pending: FollowMessage | null = null;
  private sending = false;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private pause = 1_000;

  constructor(private readonly deps: RoomFetchDeps) {}

  /** The room key arrived (fetched after the page opened): the newest message goes out now. */
  useKey(key: string): void {
    this.key = key;
    void this.flush();
  }

  postMessage(message: unknown): void {
    const type = (message as FollowMessage | null)?.type;
    // A hello is a tab's: follow views of the room get the last state from the room itself.
    if (type !== 'state' && type !== 'http-state' && type !== 'bye') return;
    this.pending = message as FollowMessage;
    clearTimeout(this.retry);
    void this.flush();
  }

  addEventListener(): void {}
  removeEventListener(): void {}
  /** Nothing more is posted after close, except a goodbye already waiting. */
  close(): void {
    clearTimeout(this.retry);
  }

  private async flush(): Promise<void> {
    if (this.sending || this.key === null) return;
    this.sending = true;
    while (this.pending !== null) {
      const message = this.pending;
      this.pending = null;
      try {
        // The goodbye is posted as the page goes away: keepalive lets it outlive the page.
        const followers = await postFollow(this.key, encodeFollowWire(message), this.deps, { keepalive: message.type === 'bye' });
        this.pause = 1_000;
        this.status.setState({ followers, error: null });
      } catch (error) {
        this.status.setState((status) => ({ ...status, error: error instanceof Error ? error.message : String(error) }));
        if (message.type !== 'bye') {
          this.pending ??= message;
          clearTimeout(this.retry);
          this.retry = setTimeout(() => void this.flush(), this.pause);
          this.pause = Math.min(30_000, this.pause * 2);
        }
        break;
      }
    }
    this.sending = false;
  }
}

export type RelayReaderStatus = { status: 'connecting' } | { status: 'open' } | { status: 'refused'; reason: string };

/**
 * A follow view's end: the room's follow stream, reconnected by itself while the bridge is away.
 * The room sends the presenter's last state as the stream opens, so a hello needs no answer here.
 */
export class RoomFollowReader implements ChannelLike {
  readonly status: Store<RelayReaderStatus> = createStore<RelayReaderStatus>({ status: 'connecting' });
  private readonly listeners = new Set<Listener>();
  private readonly stop = new AbortController();

  constructor(auth: FollowAuth, deps: RoomFetchDeps) {
    void keepReading(this.stop.signal, async (signal) => {
      try {
        const outcome = await readFollowStream(auth, deps, (text) => this.deliver(text), () => this.status.setState({ status: 'open' }), signal);
        if (outcome === 'ended') return 'again';
        this.status.setState({ status: 'refused', reason: outcome.refused });
        return 'stop';
      } finally {
        if (!signal.aborted && this.status.getSnapshot().status === 'open') this.status.setState({ status: 'connecting' });
      }
    });
  }

  postMessage(): void {}

  addEventListener(type: 'message' | 'messageerror', listener: Listener): void {
    if (type === 'message') this.listeners.add(listener);
  }

  removeEventListener(type: 'message' | 'messageerror', listener: Listener): void {
    if (type === 'message') this.listeners.delete(listener);
  }

  close(): void {
    this.stop.abort();
    this.listeners.clear();
  }

  private deliver(text: string): void {
    const event = { data: decodeFollowWire(text) } as MessageEvent;
    for (const listener of this.listeners) listener(event);
  }
}
