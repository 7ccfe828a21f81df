// Which log the message log's views read: an opened trace provides its own; everywhere else it is
// the live session (whose snapshot holds a log and its framing too).
import { createContext, useContext } from 'react';
import type { LogSource } from '../../app/live-session/log-source.ts';
import { LiveSessionContext } from './live-session-context.ts';

export const LogSourceContext = createContext<LogSource | null>(null);

export function useLogSource(): LogSource {
  const source = useContext(LogSourceContext);
  const live = useContext(LiveSessionContext);
  const chosen = source ?? live;
  if (chosen === null) throw new Error('useLogSource needs a <LogSourceContext.Provider> or a live session above it');
  return chosen;
}
