// The page's entry: pick the UI language, create the exercise store (catalogue, saved progress, the
// spec runner) and the live session (hosts are chosen at run time), render, then start looking for
// a host (the test runner warms up when the exercise workspace first shows: ExerciseWorkspace.tsx).
// `?presenter=1` renders the presenter's layout over the same stores instead of the app;
// `?follow=1` renders only the follow view, which draws what a presenter broadcasts and starts no
// server of its own. Both load lazily, so the app's first load does not carry them.

import { lazy, StrictMode, Suspense, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { exerciseFiles, loadCatalogue, loadLocalizedStarters } from './exercise/catalogue-browser.ts';
import { browserStorage, ProgressStore } from './exercise/progress-store.ts';
import { SpecRunner } from './sandbox/spec-runner.ts';
import { exerciseRunner } from './exercise/exercise-runner.ts';
import { browserIsOffline, createDefaultHosts, parseForcedHost, selectHost, withConnectivity } from './runtime/host-selection.ts';
import { App } from './ui/shell/App.tsx';
import { ExerciseContext } from './ui/hooks/exercise-context.ts';
import { browserI18nEnvironment, createI18n } from './app/i18n/index.ts';
import { LiveSessionContext } from './ui/hooks/live-session-context.ts';
import { pageMode } from './app/presenter/mode.ts';
import { ExerciseStore } from './app/exercise/exercise-store.ts';
import { ImportedCodeMarks } from './app/exercise/imported-code-marks.ts';
import { LiveSessionStore } from './app/live-session/live-session-store.ts';
import { storedUiPreferences } from './app/exercise/ui-preferences.ts';
import { roomBridgeToken } from './runtime/bridge-token.ts';
import './ui/styles/app.css';
import { registerServiceWorker } from './app/offline/register-service-worker.ts';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html must contain <div id="root">');

const mode = pageMode(window.location.search);
// The text of the first view starts loading now, beside the code, not after the first render.
const i18n = createI18n({ ...browserI18nEnvironment(), preload: mode === 'follow' ? ['live', 'presenter'] : mode === 'presenter' ? ['exercise', 'live', 'presenter'] : ['exercise', 'live'] });
const PresenterApp = lazy(() => import('./ui/presenter/PresenterApp.tsx').then((module) => ({ default: module.PresenterApp })));
const FollowApp = lazy(() => import('./ui/presenter/FollowApp.tsx').then((module) => ({ default: module.FollowApp })));

if (mode === 'follow') {
  render(<FollowApp />);
} else {
  startPlayground();
}
// After one visit the app, Monaco and the lessons load with no network (src/app/offline/sw.ts).
registerServiceWorker();

function render(children: ReactNode): void {
  createRoot(rootElement!).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <Suspense fallback={null}>{children}</Suspense>
      </I18nextProvider>
    </StrictMode>,
  );
}

function startPlayground(): void {
  const storage = browserStorage();
  const progress = new ProgressStore({ storage });
  progress.attachPageLifecycle(window, () => document.visibilityState === 'hidden');
  const exercises = new ExerciseStore({
    catalogue: loadCatalogue(),
    files: exerciseFiles,
    progress,
    runner: exerciseRunner(new SpecRunner()),
    preferences: storedUiPreferences(storage),
    // A learner with no saved code starts from the starter whose comments are in the page's language.
    starterLocale: i18n.language === 'zh-CN' ? 'zh-CN' : 'en',
    // Code an imported file brought is asked about before it runs outside the worker, like a share link's.
    importedCode: new ImportedCodeMarks(storage),
  });
  // Those starters load beside the page's UI text (not in the first paint); the first render waits
  // for them, so the editor never shows the English comments first.
  const withStarters = (language: 'zh-CN') => loadLocalizedStarters(language).then((byId) => exercises.addStarters(language, byId));
  const startersReady = i18n.language === 'zh-CN' ? withStarters('zh-CN').catch(() => {}) : Promise.resolve();
  // The open exercise's lesson starts loading now, beside the UI text, not after the first render.
  const selectedId = exercises.getSnapshot().selectedId;
  if (selectedId !== null && mode === 'app') exercises.loadText(selectedId, i18n.language === 'zh-CN' ? 'zh-CN' : 'en');
  // A language switch fetches the open lesson beside the UI text, so it shows in the new language at once.
  i18n.on('languageChanging', (language) => {
    const open = exercises.getSnapshot().selectedId;
    if (open !== null && (language === 'en' || language === 'zh-CN')) exercises.loadText(open, language);
    if (language === 'en') exercises.setStarterLocale(language);
    if (language === 'zh-CN') void withStarters(language).then(() => exercises.setStarterLocale(language), () => exercises.setStarterLocale(language));
  });

  const forcedHost = parseForcedHost(window.location.search);
  // Created once: the WebContainer allows a single instance per page, so Retry must reuse the hosts.
  const hosts = createDefaultHosts();
  const forced = forcedHost.ok ? forcedHost.forced : null;
  // No request to StackBlitz at page load: the WebContainer is probed only once the learner chooses
  // it in the host panel (for this page) or with ?host=webcontainer; the preflight probes its own.
  let webContainerChosen = false;
  const session = new LiveSessionStore({
    forced,
    invalidForced: forcedHost.ok ? null : shorten(new URLSearchParams(window.location.search).get('host') ?? ''),
    selectHost: async () => {
      const selection = await selectHost({ forced, hosts, webContainerChosen: () => webContainerChosen });
      // The network as the browser sees it now, not as when the probes began (they take a while,
      // and a page that opens offline from the service worker can learn it only meanwhile).
      return { host: selection.chosen, availability: withConnectivity(selection.availability, browserIsOffline()) };
    },
    chooseWebContainer: () => {
      webContainerChosen = true;
    },
  });

  // A page that joined a workshop room reports to it again after a reload (the room's code loads
  // only on such a page, or when the room view opens).
  if (mode === 'app' && roomBridgeToken(window.location.origin) !== null) {
    void import('./app/room/attendee-store.ts').then(({ attendeeStoreFor }) => attendeeStoreFor({ exercises, session }).start());
  }

  void startersReady.then(() =>
    render(
      <ExerciseContext.Provider value={exercises}>
        <LiveSessionContext.Provider value={session}>
          {mode === 'presenter' ? <PresenterApp /> : <App />}
        </LiveSessionContext.Provider>
      </ExerciseContext.Provider>,
    ),
  );

  void session.probeHosts();
  window.addEventListener('offline', () => session.connectivityChanged(true));
  window.addEventListener('online', () => session.connectivityChanged(false));
}

/** A query value is shown back to the learner: keep a pasted novel from taking over the panel. */
function shorten(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
