// Whether this page has joined a workshop room: the app shell then mounts the invitation prompt
// (lazily). The room's code announces itself with an event and a mark on <html>
// (src/app/room/attendee-store.ts, ROOM_JOINED_EVENT), so this shell code never imports it.
import { useEffect, useState } from 'react';

const ROOM_JOINED_EVENT = 'mcp-playground:room-joined';

export function useRoomJoined(): boolean {
  const [joined, setJoined] = useState(() => document.documentElement.dataset.room === 'joined');
  useEffect(() => {
    const listener = () => setJoined(true);
    window.addEventListener(ROOM_JOINED_EVENT, listener);
    return () => window.removeEventListener(ROOM_JOINED_EVENT, listener);
  }, []);
  return joined;
}
