// The view the address's hash names (see src/app/router.ts), kept in step with `hashchange`.

import { useEffect, useState } from 'react';
import { viewOfHash, type AppView } from '../../app/router.ts';

export function useHashView(): AppView {
  const [view, setView] = useState<AppView>(() => viewOfHash(window.location.hash));
  useEffect(() => {
    const onChange = () => setView(viewOfHash(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return view;
}
