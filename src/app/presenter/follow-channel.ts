// Both ends of the follow channel. The presenter's page posts its state whenever the stepper or
// the inspector changes (coalesced: a step changes the store many times in a few milliseconds) and
// answers a new follow view's hello at once. A follow view keeps the last valid state it received
// and counts what it ignored; it never talks to a server itself.

import { createStore, ExternalStore, type Store } from '../store/create-store.ts';
import { decodeFollowMessage, FOLLOW_CHANNEL, FOLLOW_PROTOCOL, type FollowMessage, type FollowState } from './follow-message.ts';
import type { HttpFollowState } from './http-follow.ts';

/** What the presenter shows: the stdio stepper, or the HTTP stepper (it has `transport: 'http'`). */
export type PresenterState = FollowState | HttpFollowState;

export function isHttpState(state: PresenterState): state is HttpFollowState {
  return 'transport' in state && state.transport === 'http';
}

/** The part of BroadcastChannel both ends use (the browser's and Node's have it). */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message' | 'messageerror', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message' | 'messageerror', listener: (event: MessageEvent) => void): void;
  close(): void;
}

export function openFollowChannel(): ChannelLike | null {
  return typeof BroadcastChannel === 'function' ? new BroadcastChannel(FOLLOW_CHANNEL) : null;
}

export interface BroadcasterStatus {
  /** How many state messages went out. */
  sent: number;
  /** Why the last post failed (it could not be cloned, the channel closed), if it did. */
  error: string | null;
}

export interface BroadcasterOptions {
  channel: ChannelLike;
  state: () => PresenterState;
  subscribe: (listener: () => void) => () => void;
  /** Tells follow views apart from another presenter's page; random by default. */
  presenterId?: string;
  delayMs?: number;
}

export class PresenterBroadcaster {
  readonly status: Store<BroadcasterStatus> = createStore<BroadcasterStatus>({ sent: 0, error: null });
  private readonly id: string;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private unsubscribe: (() => void) | null = null;
  private readonly onMessage = (event: MessageEvent) => {
    if (decodeFollowMessage(event.data)?.type === 'hello') this.postNow();
  };

  constructor(private readonly options: BroadcasterOptions) {
    this.id = options.presenterId ?? Math.random().toString(36).slice(2, 10);
  }

  start(): void {
    if (this.unsubscribe) return;
    this.options.channel.addEventListener('message', this.onMessage);
    this.unsubscribe = this.options.subscribe(() => this.schedule());
    this.postNow();
  }

  /** Tell follow views the presenter left, and let go of the channel. */
  stop(): void {
    if (!this.unsubscribe) return;
    this.unsubscribe();
    this.unsubscribe = null;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.options.channel.removeEventListener('message', this.onMessage);
    this.post({ type: 'bye', protocol: FOLLOW_PROTOCOL, presenter: this.id });
    this.options.channel.close();
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => this.postNow(), this.options.delayMs ?? 30);
  }

  private postNow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const state = this.options.state();
    const message: FollowMessage = isHttpState(state)
      ? { type: 'http-state', protocol: FOLLOW_PROTOCOL, presenter: this.id, state }
      : { type: 'state', protocol: FOLLOW_PROTOCOL, presenter: this.id, state };
    if (this.post(message)) {
      this.status.setState((status) => ({ sent: status.sent + 1, error: null }));
    }
  }

  private post(message: FollowMessage): boolean {
    try {
      this.options.channel.postMessage(message);
      return true;
    } catch (error) {
      this.status.setState((status) => ({ ...status, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }));
      return false;
    }
  }
}

export type FollowViewState =
  | { status: 'waiting'; ignored: number }
  | { status: 'following'; presenter: string; state: PresenterState; ignored: number }
  /** The presenter's page closed: keep the last picture up, with a notice. */
  | { status: 'left'; presenter: string; state: PresenterState; ignored: number };

export class FollowStore extends ExternalStore<FollowViewState> {
  protected readonly store: Store<FollowViewState> = createStore<FollowViewState>({ status: 'waiting', ignored: 0 });
  private readonly onMessage = (event: MessageEvent) => this.receive(event.data);
  private readonly onMessageError = () => this.ignore();

  constructor(private readonly channel: ChannelLike) {
    super();
  }

  /** Listen, and ask any presenter already stepping for its state. */
  start(): void {
    this.channel.addEventListener('message', this.onMessage);
    this.channel.addEventListener('messageerror', this.onMessageError);
    this.channel.postMessage({ type: 'hello', protocol: FOLLOW_PROTOCOL } satisfies FollowMessage);
  }

  stop(): void {
    this.channel.removeEventListener('message', this.onMessage);
    this.channel.removeEventListener('messageerror', this.onMessageError);
    this.channel.close();
  }

  receive(data: unknown): void {
    const message = decodeFollowMessage(data);
    if (message === null) return this.ignore();
    if (message.type === 'state' || message.type === 'http-state') {
      this.store.setState((current) => ({ status: 'following', presenter: message.presenter, state: message.state, ignored: current.ignored }));
    } else if (message.type === 'bye') {
      this.store.setState((current) => (current.status === 'following' && current.presenter === message.presenter ? { ...current, status: 'left' } : current));
    }
    // A hello comes from another follow view: nothing to do.
  }

  private ignore(): void {
    this.store.setState((current) => ({ ...current, ignored: current.ignored + 1 }));
  }
}
