// The way from the app to presenter mode, for the app's header. Small on purpose: it must not pull
// the presenter's views into the app's first load (they load lazily from main.tsx).

import { modeHref } from '../../app/presenter/mode.ts';
import { usePresenterText } from '../../app/presenter/text.ts';

export function PresenterLink() {
  const t = usePresenterText();
  return (
    <a href={modeHref(window.location.href, 'presenter')} title={t('presenter.openTitle')} data-testid="presenter-link">
      {t('presenter.open')}
    </a>
  );
}
