// Which view of the page is showing, from the address's hash: `#protocol…` is the protocol view,
// anything else (`#workspace`, `#live-panel`, none) the study view. The hash is the only state, so
// the back button, reloads and shared links all land on the same view.

import { useEffect, useState } from 'react';
import { isProtocolHash } from './step-link.ts';

export type AppView = 'study' | 'protocol';

export function viewOfHash(hash: string): AppView {
  return isProtocolHash(hash) ? 'protocol' : 'study';
}

export function useHashView(): AppView {
  const [view, setView] = useState<AppView>(() => viewOfHash(window.location.hash));
  useEffect(() => {
    const onChange = () => setView(viewOfHash(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return view;
}
