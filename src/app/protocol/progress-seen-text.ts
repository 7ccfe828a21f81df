// One progress notification as the HTTP stepper's "What the client holds" says it: "0/1 started".
// The two messages the project's own servers send (tool-progress.ts: 'started', 'finished') are
// worded in the page's language; any other message is the server's own text and is shown as sent.

import type { ProgressSeen } from './http-session-store.ts';
import type { ProtocolText } from './text.ts';

export function progressSeenText(t: ProtocolText, entry: ProgressSeen): string {
  const { progress, total } = entry;
  if (entry.message === null) return t('http.holds.progressBare', { progress, total });
  const message = entry.message === 'started' ? t('http.holds.progressStarted') : entry.message === 'finished' ? t('http.holds.progressFinished') : entry.message;
  return t('http.holds.progressEntry', { progress, total, message });
}

/** Every notification seen, in order, on one line. */
export function progressLine(t: ProtocolText, entries: readonly ProgressSeen[]): string {
  return entries.map((entry) => progressSeenText(t, entry)).join(' · ');
}
