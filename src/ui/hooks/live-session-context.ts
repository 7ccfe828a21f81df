// Hands the one LiveSessionStore to the components that render it (created in main.tsx, not here,
// so tests and other entry points can pass their own).
import { createContext, useContext } from 'react';
import type { LiveSessionStore } from '../../app/live-session/live-session-store.ts';

export const LiveSessionContext = createContext<LiveSessionStore | null>(null);

export function useLiveSession(): LiveSessionStore {
  const session = useContext(LiveSessionContext);
  if (session === null) throw new Error('useLiveSession needs a <LiveSessionContext.Provider> above it');
  return session;
}
