// The attendee's reports on their way to the room: numbered, kept in the page's storage until the
// bridge acknowledges them, and sent in order, at most one request a second. While the bridge is
// away (restarting, or the laptop's Wi-Fi dropped) they wait, with a growing pause between
// tries, and go out when it is back: the room counts each (attendee, seq) once, so sending one
// again after a lost acknowledgement is safe.

import type { RoomReport } from '../../runtime/room-messages.ts';
import type { SendOutcome } from './room-client.ts';
import type { RoomStorage } from '../../runtime/room-membership.ts';

export const ROOM_OUTBOX_KEY = 'mcp-playground:room-outbox';
/** Reports one request carries (the bridge takes up to 20). */
const BATCH = 20;
/** Reports kept while the bridge is away; past this the oldest go (a day offline is not a workshop). */
const MAX_PENDING = 500;

export type OutboxStatus = 'idle' | 'sending' | 'waiting' | 'left';

export interface OutboxState {
  pending: number;
  status: OutboxStatus;
  /** Why the last try failed, while waiting to try again. */
  problem: string | null;
}

export interface OutboxDeps {
  storage: RoomStorage | null;
  send(reports: RoomReport[]): Promise<SendOutcome>;
  now(): number;
  /** The seq the next report gets, and where to keep the new one. */
  nextSeq: number;
  saveNextSeq(nextSeq: number): void;
  /** The bridge no longer knows this attendee (a new room file): the page forgets its membership. */
  onLeft(): void;
  onState?(state: OutboxState): void;
  minIntervalMs?: number;
  maxBackoffMs?: number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export class RoomOutbox {
  private pending: RoomReport[];
  private nextSeq: number;
  private timer: unknown = null;
  private inFlight = false;
  private backoffMs = 0;
  private lastSentAt = -Infinity;
  private state: OutboxState = { pending: 0, status: 'idle', problem: null };
  private stopped = false;

  constructor(private readonly deps: OutboxDeps) {
    this.pending = loadOutbox(deps.storage);
    // Never reuse a number a stored report already has.
    this.nextSeq = Math.max(deps.nextSeq, ...this.pending.map((report) => report.seq + 1));
    this.publish(this.pending.length > 0 ? 'waiting' : 'idle', null);
    if (this.pending.length > 0) this.schedule(0);
  }

  get snapshot(): OutboxState {
    return this.state;
  }

  /** Queue one report (numbered and timed here) and send it soon. */
  add(fields: Omit<RoomReport, 'seq' | 'at'>): void {
    if (this.stopped) return;
    const report: RoomReport = { seq: this.nextSeq++, at: this.deps.now(), ...fields };
    this.deps.saveNextSeq(this.nextSeq);
    this.pending.push(report);
    if (this.pending.length > MAX_PENDING) this.pending.splice(0, this.pending.length - MAX_PENDING);
    this.save();
    this.publish(this.inFlight ? 'sending' : this.state.status === 'waiting' ? 'waiting' : 'idle', this.state.problem);
    if (this.backoffMs === 0) this.schedule(Math.max(0, this.lastSentAt + this.minInterval() - this.deps.now()));
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) (this.deps.clearTimer ?? clearTimeout)(this.timer as ReturnType<typeof setTimeout>);
    this.timer = null;
  }

  private schedule(ms: number): void {
    if (this.stopped || this.inFlight || this.timer !== null) return;
    this.timer = (this.deps.setTimer ?? setTimeout)(() => {
      this.timer = null;
      void this.flush();
    }, ms);
  }

  private async flush(): Promise<void> {
    if (this.stopped || this.inFlight || this.pending.length === 0) return;
    this.inFlight = true;
    this.lastSentAt = this.deps.now();
    const batch = this.pending.slice(0, BATCH);
    this.publish('sending', this.state.problem);
    const outcome = await this.deps.send(batch);
    this.inFlight = false;
    if (this.stopped) return;
    if (outcome.kind === 'acked') {
      const acked = new Set(outcome.seqs);
      this.pending = this.pending.filter((report) => !acked.has(report.seq));
      this.backoffMs = 0;
      this.save();
      this.publish(this.pending.length > 0 ? 'sending' : 'idle', null);
      if (this.pending.length > 0) this.schedule(this.minInterval());
    } else if (outcome.kind === 'unknown-attendee') {
      this.pending = [];
      this.save();
      this.publish('left', null);
      this.stopped = true;
      this.deps.onLeft();
    } else if (outcome.kind === 'refused') {
      // The bridge will never take this batch (a page older than the bridge?): drop it, keep the rest going.
      const dropped = new Set(batch.map((report) => report.seq));
      this.pending = this.pending.filter((report) => !dropped.has(report.seq));
      this.save();
      this.publish(this.pending.length > 0 ? 'sending' : 'idle', outcome.detail);
      if (this.pending.length > 0) this.schedule(this.minInterval());
    } else {
      this.backoffMs = Math.min(this.deps.maxBackoffMs ?? 30_000, Math.max(this.minInterval(), this.backoffMs * 2));
      this.publish('waiting', outcome.detail);
      this.schedule(this.backoffMs);
    }
  }

  private minInterval(): number {
    return this.deps.minIntervalMs ?? 1_000;
  }

  private save(): void {
    try {
      if (this.pending.length === 0) this.deps.storage?.removeItem(ROOM_OUTBOX_KEY);
      else this.deps.storage?.setItem(ROOM_OUTBOX_KEY, JSON.stringify(this.pending));
    } catch {
      // Storage full or denied: the reports still wait in memory for this page's lifetime.
    }
  }

  private publish(status: OutboxStatus, problem: string | null): void {
    this.state = { pending: this.pending.length, status, problem };
    this.deps.onState?.(this.state);
  }
}

function loadOutbox(storage: RoomStorage | null): RoomReport[] {
  try {
    const parsed = JSON.parse(storage?.getItem(ROOM_OUTBOX_KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((report): report is RoomReport => typeof report === 'object' && report !== null && Number.isSafeInteger((report as RoomReport).seq)) : [];
  } catch {
    return [];
  }
}
