// The attendee's side of the workshop room, for the page: whether this page joined a room, the
// join itself, and the reporting that follows (attach-room.ts, loaded only once joined, like the
// request code: a page that never joins a room never loads either).

import { loadMembership, pageStorage, saveMembership, type RoomMembership, type RoomStorage } from '../../runtime/room-membership.ts';
import type { ExerciseStore } from '../exercise/exercise-store.ts';
import type { LiveSessionStore } from '../live-session/live-session-store.ts';
import { createStore, ExternalStore, type Store } from '../store/create-store.ts';
import type { OutboxState } from './room-outbox.ts';
import type { HelpFrame, HelpRequest, RoomInvitation } from '../../runtime/room-messages.ts';
import { FOLLOW_STATION, placeOfStation } from './station.ts';
import { modeHref } from '../presenter/mode.ts';
import type { JoinOutcome } from './room-client.ts';

export type JoinProblem = Extract<JoinOutcome, { ok: false }>['reason'] | 'not-saved';

export interface AttendeeState {
  membership: RoomMembership | null;
  joining: boolean;
  problem: { reason: JoinProblem; detail: string } | null;
  outbox: OutboxState | null;
  /** The room forgot this page's attendee (a new room file): say so beside the join form. */
  forgotten: boolean;
  /** "Send everyone to…" from the instructor, until the attendee goes or declines. */
  invitation: RoomInvitation | null;
  /** The last "Ask for help": sending, in the queue at `position`, or why it was not sent. */
  help: { status: 'sending' } | { status: 'queued'; position: number; exercise: number; withFrame: boolean } | { status: 'too-soon'; seconds: number } | { status: 'failed'; detail: string } | null;
}

/**
 * The event an attached store announces itself with: the app shell (first paint) then mounts the
 * invitation prompt, without importing this module. use-room-joined.ts listens for the same name.
 */
export const ROOM_JOINED_EVENT = 'mcp-playground:room-joined';

export interface AttendeeStoreOptions {
  exercises: ExerciseStore;
  /** After a join the page looks for its hosts again: the join code brought the bridge's token. */
  session: Pick<LiveSessionStore, 'probeHosts'>;
  origin?: string;
  storage?: RoomStorage | null;
}

let pageStore: AttendeeStore | null = null;

/** The page's one attendee store, made on first use: by the room view, or at load on a page that joined before. */
export function attendeeStoreFor(options: AttendeeStoreOptions): AttendeeStore {
  return (pageStore ??= new AttendeeStore(options));
}

export class AttendeeStore extends ExternalStore<AttendeeState> {
  protected readonly store: Store<AttendeeState>;
  private readonly storage: RoomStorage | null;
  private readonly origin: string;
  private detach: (() => void) | null = null;

  constructor(private readonly options: AttendeeStoreOptions) {
    super();
    this.storage = options.storage === undefined ? pageStorage() : options.storage;
    this.origin = options.origin ?? window.location.origin;
    this.store = createStore<AttendeeState>({ membership: loadMembership(this.storage, this.origin), joining: false, problem: null, outbox: null, forgotten: false, invitation: null, help: null });
  }

  /** Reports again after a reload, when this page joined a room before. */
  start(): void {
    if (this.store.getSnapshot().membership !== null) void this.attach();
  }

  async join(code: string, name: string): Promise<boolean> {
    this.store.setState((state) => ({ ...state, joining: true, problem: null }));
    const { joinRoom } = await import('./room-client.ts');
    const outcome = await joinRoom(code, name, { origin: this.origin });
    if (!outcome.ok) {
      this.store.setState((state) => ({ ...state, joining: false, problem: { reason: outcome.reason, detail: outcome.detail } }));
      return false;
    }
    const saved = saveMembership(this.storage, outcome.membership);
    this.store.setState((state) => ({
      ...state,
      joining: false,
      membership: outcome.membership,
      forgotten: false,
      problem: saved ? null : { reason: 'not-saved', detail: '' },
    }));
    await this.attach();
    void this.options.session.probeHosts();
    return true;
  }

  /**
   * "Ask for help": the open exercise's file and its last run's results go to the instructor's
   * queue, with the frame the question is about when there is one (help-frame.ts). Nothing else of
   * the attendee's code ever leaves the page.
   */
  async askForHelp(frame: HelpFrame | null = null): Promise<void> {
    const { membership } = this.store.getSnapshot();
    const exercise = this.options.exercises.selected();
    if (membership === null || exercise === undefined) return;
    const run = this.options.exercises.runOf(exercise.meta.id);
    const results = run.status === 'done' ? run.result.tests.map((test) => ({ name: test.name, status: test.status, ...(test.message === undefined ? {} : { message: test.message }) })) : [];
    const request: HelpRequest = { exercise: exercise.meta.order, file: exercise.meta.learnerFile, code: this.options.exercises.codeOf(exercise.meta.id), results, ...(frame === null ? {} : { frame }) };
    this.store.setState((state) => ({ ...state, help: { status: 'sending' } }));
    const { askForHelp, HelpRefusedError } = await import('./room-client.ts');
    try {
      const deps = { origin: this.origin };
      // A frame the room will not take (too big with this file, or odd) must not cost the question: ask without it.
      const answer = await askForHelp(membership, request, deps).catch((error: unknown) => {
        if (frame === null || !(error instanceof HelpRefusedError) || (error.status !== 400 && error.status !== 413)) throw error;
        frame = null;
        const { frame: _dropped, ...withoutFrame } = request;
        return askForHelp(membership, withoutFrame, deps);
      });
      const help = 'retryAfterS' in answer ? ({ status: 'too-soon', seconds: answer.retryAfterS } as const) : ({ status: 'queued', position: answer.position, exercise: request.exercise, withFrame: frame !== null } as const);
      this.store.setState((state) => ({ ...state, help }));
    } catch (error) {
      this.store.setState((state) => ({ ...state, help: { status: 'failed', detail: error instanceof Error ? error.message : String(error) } }));
    }
  }

  /** Go where the instructor sent everyone. */
  acceptInvitation(): void {
    const invitation = this.store.getSnapshot().invitation;
    this.store.setState((state) => ({ ...state, invitation: null }));
    if (invitation?.station === FOLLOW_STATION) return openFollowView();
    const place = invitation === null ? null : placeOfStation(invitation.station);
    if (place === null) return;
    const id = place.exercise === null ? undefined : this.options.exercises.exercises.find((exercise) => exercise.meta.order === place.exercise)?.meta.id;
    if (id !== undefined) this.options.exercises.select(id);
    window.location.hash = place.hash;
  }

  /** The presenter's screen, in a tab of its own beside the attendee's work. */
  followPresenter(): void {
    openFollowView();
  }

  declineInvitation(): void {
    this.store.setState((state) => ({ ...state, invitation: null }));
  }

  private async attach(): Promise<void> {
    const membership = this.store.getSnapshot().membership;
    if (membership === null || this.detach !== null) return;
    const { attachRoom } = await import('./attach-room.ts');
    this.detach = attachRoom({
      exercises: this.options.exercises,
      membership,
      storage: this.storage,
      hash: () => window.location.hash,
      onHashChange: (listener) => {
        window.addEventListener('hashchange', listener);
        return () => window.removeEventListener('hashchange', listener);
      },
      onState: (outbox) => this.store.setState((state) => ({ ...state, outbox })),
      onInvite: (invitation) => this.store.setState((state) => ({ ...state, invitation })),
      onLeft: () => {
        this.detach = null;
        this.store.setState((state) => ({ ...state, membership: null, outbox: null, forgotten: true, invitation: null }));
      },
    });
    document.documentElement.dataset.room = 'joined';
    window.dispatchEvent(new Event(ROOM_JOINED_EVENT));
  }
}

/**
 * The follow view in a new tab (the work stays open here); where the browser blocks the tab, this
 * tab goes there (the follow view links back, and the code and progress are saved).
 */
function openFollowView(): void {
  const href = modeHref(window.location.href, 'follow');
  const opened = window.open(href, '_blank');
  if (opened === null) window.location.assign(href);
  else opened.opener = null;
}
