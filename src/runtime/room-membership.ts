// An attendee's place in the workshop room, kept in their page's storage: who they are (an id and
// the secret only this page holds), the name they chose, the bridge token the join code gave, and
// the next report number. Kept per origin: a room is one instructor's bridge at one address.

export const ROOM_MEMBERSHIP_KEY = 'mcp-playground:room';

export type RoomStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface RoomMembership {
  attendee: string;
  secret: string;
  name: string;
  bridgeToken: string | null;
  /** The page origin the room lives at. */
  origin: string;
  /** The seq the next report gets. */
  nextSeq: number;
}

export function loadMembership(storage: RoomStorage | null, origin: string): RoomMembership | null {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(ROOM_MEMBERSHIP_KEY) ?? null;
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Partial<RoomMembership>;
    const valid =
      typeof value.attendee === 'string' &&
      typeof value.secret === 'string' &&
      typeof value.name === 'string' &&
      (typeof value.bridgeToken === 'string' || value.bridgeToken === null) &&
      value.origin === origin &&
      Number.isSafeInteger(value.nextSeq) &&
      (value.nextSeq as number) >= 1;
    return valid ? (value as RoomMembership) : null;
  } catch {
    return null;
  }
}

/** False when the browser refused to store it (private mode, quota): the room then lasts this page only. */
export function saveMembership(storage: RoomStorage | null, membership: RoomMembership): boolean {
  try {
    storage?.setItem(ROOM_MEMBERSHIP_KEY, JSON.stringify(membership));
    return storage !== null;
  } catch {
    return false;
  }
}

export function clearMembership(storage: RoomStorage | null): void {
  try {
    storage?.removeItem(ROOM_MEMBERSHIP_KEY);
  } catch {
    // Nothing stored, nothing to clear.
  }
}

/** The page's storage, or null where the browser denies it. */
export function pageStorage(): RoomStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}
