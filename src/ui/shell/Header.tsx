import { useTranslation } from 'react-i18next';
import { CHAPTER_LOOP_HASH, PREFLIGHT_HASH, ROOM_HASH, TRACE_HASH, type AppView } from '../../app/router.ts';
import { bridgeIsSharedFromPage } from '../../runtime/bridge-host.ts';
import { PROTOCOL_HASH } from '../../app/protocol/step-link.ts';
import { HostBadge } from '../live-session/HostBadge.tsx';
import { LanguageSwitch } from '../components/LanguageSwitch.tsx';
import { PresenterLink } from '../presenter/PresenterLink.tsx';
import { OfflineStatus } from '../preflight/OfflineStatus.tsx';
import { showLivePanel } from '../hooks/use-view-scroll.ts';

export function Header({ view = 'study' }: { view?: AppView }) {
  const { t } = useTranslation('common');
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
        <a href={CHAPTER_LOOP_HASH} aria-current={view === 'chapter-loop' ? 'page' : undefined}>
          {t('nav.chapterLoop')}
        </a>
        {/* Below whichever view shows: brought into sight without leaving the view. */}
        <button type="button" className="link-button" onClick={showLivePanel}>
          {t('nav.livePanel')}
        </button>
        <a href={TRACE_HASH} aria-current={view === 'trace' ? 'page' : undefined}>
          {t('nav.trace')}
        </a>
        <a href={PREFLIGHT_HASH} aria-current={view === 'preflight' ? 'page' : undefined}>
          {t('nav.preflight')}
        </a>
        {/* A workshop's shared bridge has a room: the instructor's grid, or an attendee's join form. */}
        {(view === 'room' || bridgeIsSharedFromPage()) && (
          <a href={ROOM_HASH} aria-current={view === 'room' ? 'page' : undefined}>
            {t('nav.room')}
          </a>
        )}
        <PresenterLink />
      </nav>
      <div className="app-header__tools">
        <HostBadge />
        <OfflineStatus />
        <LanguageSwitch />
      </div>
    </header>
  );
}
