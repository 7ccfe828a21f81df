// An attendee's page in the room: after each finished run and each move along the chapter path,
// a report goes to the outbox (tests passed / total, hints opened, reference used, the station);
// a stream to the bridge says the page is here (the instructor's grid shows who is connected) and
// reconnects by itself. Loaded only on a page that joined a room.

import type { ExerciseStore } from '../exercise/exercise-store.ts';
import type { RoomInvitation, RoomReport } from '../../runtime/room-messages.ts';
import { clearMembership, saveMembership, type RoomMembership, type RoomStorage } from '../../runtime/room-membership.ts';
import { keepReading, readAttendeeStream, sendReports } from './room-client.ts';
import { RoomOutbox, type OutboxState } from './room-outbox.ts';
import { stationOf } from './station.ts';

export interface AttachRoomOptions {
  exercises: ExerciseStore;
  membership: RoomMembership;
  storage: RoomStorage | null;
  /** The page's address hash now (the station), and a way to hear it change. */
  hash(): string;
  onHashChange(listener: () => void): () => void;
  onState?(state: OutboxState): void;
  /** The room forgot this attendee (a new room file): the page shows the join form again. */
  onLeft?(): void;
  /** The instructor sends everyone somewhere: the page asks its attendee. */
  onInvite?(invitation: RoomInvitation): void;
}

export function attachRoom(options: AttachRoomOptions): () => void {
  const { exercises, membership, storage } = options;
  const origin = membership.origin;
  let current = { ...membership };
  const outbox = new RoomOutbox({
    storage,
    send: (reports) => sendReports(current, reports, { origin }),
    now: () => Date.now(),
    nextSeq: current.nextSeq,
    saveNextSeq: (nextSeq) => {
      current = { ...current, nextSeq };
      saveMembership(storage, current);
    },
    onLeft: () => leave(),
    onState: options.onState,
  });

  const orderOf = (id: string | null): number | null => (id === null ? null : (exercises.find(id)?.meta.order ?? null));
  const station = (): string => stationOf(options.hash(), orderOf(exercises.getSnapshot().selectedId));
  /** What every report says besides its run: hints opened and reference used, per exercise. */
  const standing = (): Pick<RoomReport, 'hints' | 'referenceUsed'> => {
    const hints: Record<string, number> = {};
    const referenceUsed: number[] = [];
    for (const [id, progress] of Object.entries(exercises.progress.exportData().exercises)) {
      const order = orderOf(id);
      if (order === null) continue;
      if (progress.hintsRevealed > 0) hints[String(order)] = progress.hintsRevealed;
      if (progress.referenceUsed === true) referenceUsed.push(order);
    }
    return { hints, referenceUsed };
  };

  let lastStation = station();
  outbox.add({ station: lastStation, ...standing() });
  const moved = (): void => {
    const now = station();
    if (now === lastStation) return;
    lastStation = now;
    outbox.add({ station: now, ...standing() });
  };

  // A run reports once, when it is done: its seq tells a new run from the same one seen again.
  const reported = new Map<string, number>();
  for (const [id, run] of Object.entries(exercises.getSnapshot().runs)) if (run.status === 'done') reported.set(id, run.seq);
  const unsubscribeRuns = exercises.subscribe(() => {
    const state = exercises.getSnapshot();
    for (const [id, run] of Object.entries(state.runs)) {
      if (run.status !== 'done' || reported.get(id) === run.seq) continue;
      reported.set(id, run.seq);
      const order = orderOf(id);
      if (order === null) continue;
      const total = run.result.tests.length;
      const passed = run.result.tests.filter((test) => test.status === 'pass').length;
      lastStation = station();
      outbox.add({ station: lastStation, run: { exercise: order, passed, total }, ...standing() });
    }
    moved();
  });
  const unsubscribeHash = options.onHashChange(moved);

  // The presence stream: reconnect with a growing pause while the bridge is away.
  const presence = new AbortController();
  void keepReading(presence.signal, async (signal) => {
    const ended = await readAttendeeStream(current, { origin }, (type, data) => {
      if (type === 'invite') options.onInvite?.(JSON.parse(data) as RoomInvitation);
    }, signal);
    if (ended === 'unknown-attendee') {
      leave();
      return 'stop';
    }
    return 'again';
  });

  let detached = false;
  function detach(): void {
    if (detached) return;
    detached = true;
    outbox.stop();
    presence.abort();
    unsubscribeRuns();
    unsubscribeHash();
  }
  function leave(): void {
    detach();
    clearMembership(storage);
    options.onLeft?.();
  }
  return detach;
}
