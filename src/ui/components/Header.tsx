import { useTranslation } from 'react-i18next';
import type { AppView } from '../protocol-view/app-view.ts';
import { PROTOCOL_HASH } from '../protocol-view/step-link.ts';
import { HostBadge } from './HostBadge.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';

export function Header({ view = 'study' }: { view?: AppView }) {
  const { t } = useTranslation();
  return (
    <header className="app-header">
      <div className="app-header__titles">
        <h1 className="app-header__title">{t('app.title')}</h1>
        <p className="app-header__tagline">{t('app.tagline')}</p>
      </div>
      <nav className="app-header__nav" aria-label={t('nav.label')}>
        <a href="#workspace" aria-current={view === 'study' ? 'page' : undefined}>
          {t('nav.exercise')}
        </a>
        <a href={PROTOCOL_HASH} aria-current={view === 'protocol' ? 'page' : undefined}>
          {t('nav.protocol')}
        </a>
        <a href="#live-panel">{t('nav.livePanel')}</a>
      </nav>
      <div className="app-header__tools">
        <HostBadge />
        <LanguageSwitch />
      </div>
    </header>
  );
}
