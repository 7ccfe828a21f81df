import { lazy, Suspense, useCallback, useEffect, useRef, useState, type CSSProperties } from 'react';
import { ExerciseWorkspace } from '../exercise/ExerciseWorkspace.tsx';
import { Header } from './Header.tsx';
import { SandboxNotice } from './SandboxNotice.tsx';
import { LessonPane } from '../exercise/LessonPane.tsx';
import { LivePanel } from '../live-session/LivePanel.tsx';
import { ProgressNotices } from '../exercise/ProgressNotices.tsx';
import { StudySeparator } from '../exercise/StudySeparator.tsx';
import { useStoreSelector } from '../hooks/use-store.ts';
import { useLiveSession } from '../hooks/live-session-context.ts';
import { useRoomJoined } from '../hooks/use-room-joined.ts';
import { bridgeIsSharedFromPage } from '../../runtime/bridge-host.ts';
import { useStudyLayout } from '../hooks/use-study-layout.ts';
import { useHashView } from '../hooks/use-hash-view.ts';
import { useViewScroll } from '../hooks/use-view-scroll.ts';
import { ProtocolServicesProvider } from '../protocol/ProtocolServicesProvider.tsx';
import { ViewErrorBoundary } from '../components/ViewErrorBoundary.tsx';
import { isProtocolHash, parseSceneHash, parseStepHash, stepHash } from '../../app/protocol/step-link.ts';


/**
 * Three views under one header: the study view (lesson on the left, the learner's code and its
 * results on the right), the protocol view (stepper, byte inspector, failure lab) and the Chapter
 * loop (registry, agent turn, approval gate), chosen by the address's hash. Each stays mounted once
 * shown, so switching keeps the editor, the stepper and the turn as they were; the live panel
 * follows below whichever is showing. Each view has its own error boundary: one that fails says so
 * and the others keep working.
 */
// The views other than the study view load when first shown, so the JavaScript needed before the
// editor opens stays within its budget (180 KB gzipped; `npm run bench`).
const ProtocolView = lazy(() => import('../protocol/ProtocolView.tsx').then((module) => ({ default: module.ProtocolView })));
const ChapterLoopView = lazy(() => import('../chapter-loop/ChapterLoopView.tsx').then((module) => ({ default: module.ChapterLoopView })));
const SdkChecksPanel = lazy(() => import('../sdk-checks/SdkChecksPanel.tsx').then((module) => ({ default: module.SdkChecksPanel })));
const TraceView = lazy(() => import('../trace/TraceView.tsx'));
const RoomView = lazy(() => import('../room/RoomView.tsx'));
const RoomBar = lazy(() => import('../room/RoomBar.tsx'));
const PreflightPanel = lazy(() => import('../preflight/PreflightPanel.tsx').then((module) => ({ default: module.PreflightPanel })));

export function App() {
  const view = useHashView();
  const session = useLiveSession();
  const roomJoined = useRoomJoined();
  const main = useRef<HTMLElement>(null);
  useViewScroll(view, main);
  const studyLayout = useStudyLayout();
  const lessonShare = useStoreSelector(studyLayout, (state) => state.lessonShare);
  // Each view mounts when first shown and then stays (hidden), keeping its state. The study view
  // too: its editor loads Monaco and its workspace the test runner (~2 s of CPU together), which a
  // page opened on another view would pay for and not show.
  const [studyShown, setStudyShown] = useState(view === 'study');
  const [protocolShown, setProtocolShown] = useState(view === 'protocol');
  const [chapterLoopShown, setChapterLoopShown] = useState(view === 'chapter-loop');
  // An opened trace stays open while the learner looks at another view.
  const [traceShown, setTraceShown] = useState(view === 'trace');
  useEffect(() => {
    if (view === 'study') setStudyShown(true);
    else if (view === 'protocol') setProtocolShown(true);
    else if (view === 'chapter-loop') setChapterLoopShown(true);
    else if (view === 'trace') setTraceShown(true);
    // A section link (#live-panel) from the other view: scroll once the section is visible.
    else if (window.location.hash.length > 1) document.getElementById(window.location.hash.slice(1))?.scrollIntoView();
  }, [view]);

  // Keep the address on the step shown, so it can be copied as a deep link.
  const onCursorChange = useCallback((cursor: number) => {
    // A scene link stays in the address until the learner steps (it says more than "step 0").
    const hash = window.location.hash;
    if (isProtocolHash(hash) && parseStepHash(hash) !== cursor && !(cursor === 0 && parseSceneHash(hash) !== null)) {
      window.history.replaceState(null, '', stepHash(cursor));
    }
  }, []);

  return (
    <ProtocolServicesProvider>
      <div className="app">
        <Header view={view} />
        <main className="app-main" ref={main}>
          <ProgressNotices />
          {roomJoined && (
            <Suspense fallback={null}>
              <RoomBar session={session} />
            </Suspense>
          )}
          <SandboxNotice />
          {studyShown && (
            <div className="app-main__study" hidden={view !== 'study'} style={{ '--lesson-share': lessonShare } as CSSProperties}>
              <ViewErrorBoundary view="exercise">
                <LessonPane />
                <StudySeparator controls="lesson-pane" />
                <ExerciseWorkspace />
              </ViewErrorBoundary>
            </div>
          )}
          {protocolShown && (
            <div className="app-main__protocol" hidden={view !== 'protocol'}>
              <ViewErrorBoundary view="protocol">
                <Suspense fallback={null}>
                  <ProtocolView initialStep={parseStepHash(window.location.hash)} onCursorChange={onCursorChange} />
                </Suspense>
              </ViewErrorBoundary>
            </div>
          )}
          {chapterLoopShown && (
            <div className="app-main__chapter-loop" hidden={view !== 'chapter-loop'}>
              <ViewErrorBoundary view="chapterLoop">
                <Suspense fallback={null}>
                  <ChapterLoopView>
                    <SdkChecksPanel />
                  </ChapterLoopView>
                </Suspense>
              </ViewErrorBoundary>
            </div>
          )}
          {traceShown && (
            <div className="app-main__trace" hidden={view !== 'trace'}>
              <ViewErrorBoundary view="trace">
                <Suspense fallback={null}>
                  <TraceView />
                </Suspense>
              </ViewErrorBoundary>
            </div>
          )}
          {view === 'preflight' && (
            <div className="app-main__preflight">
              <ViewErrorBoundary view="preflight">
                <Suspense fallback={null}>
                  <PreflightPanel />
                </Suspense>
              </ViewErrorBoundary>
            </div>
          )}
          {view === 'room' && (
            <div className="app-main__room">
              <ViewErrorBoundary view="room">
                <Suspense fallback={null}>
                  <RoomView shared={bridgeIsSharedFromPage()} session={session} />
                </Suspense>
              </ViewErrorBoundary>
            </div>
          )}
          <ViewErrorBoundary view="livePanel">
            <LivePanel />
          </ViewErrorBoundary>
        </main>
      </div>
    </ProtocolServicesProvider>
  );
}
