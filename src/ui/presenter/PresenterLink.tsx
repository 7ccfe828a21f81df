// The way from the app to presenter mode, for the app's header. Small on purpose: it must not pull
// the presenter's views into the app's first load (they load lazily from main.tsx), nor its text
// (the link's words are in `common`, with the rest of the header).

import { useNamespaceText } from '../hooks/use-namespace-text.ts';
import { modeHref } from '../../app/presenter/mode.ts';

export function PresenterLink() {
  const t = useNamespaceText('common');
  return (
    <a href={modeHref(window.location.href, 'presenter')} title={t('presenterLink.openTitle')} data-testid="presenter-link">
      {t('presenterLink.open')}
    </a>
  );
}
