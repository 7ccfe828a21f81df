import { useTranslation } from 'react-i18next';
import { HostBadge } from './HostBadge.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';

export function Header() {
  const { t } = useTranslation();
  return (
    <header className="app-header">
      <div className="app-header__titles">
        <h1 className="app-header__title">{t('app.title')}</h1>
        <p className="app-header__tagline">{t('app.tagline')}</p>
      </div>
      <nav className="app-header__nav" aria-label={t('nav.label')}>
        <a href="#workspace">{t('nav.exercise')}</a>
        <a href="#live-panel">{t('nav.livePanel')}</a>
      </nav>
      <div className="app-header__tools">
        <HostBadge />
        <LanguageSwitch />
      </div>
    </header>
  );
}
