import { useCallback, useEffect, useState } from 'react';
import { ExerciseWorkspace } from './components/ExerciseWorkspace.tsx';
import { Header } from './components/Header.tsx';
import { LessonPane } from './components/LessonPane.tsx';
import { LivePanel } from './components/LivePanel.tsx';
import { ProgressNotices } from './components/ProgressNotices.tsx';
import { useHashView } from './protocol-view/app-view.ts';
import { ProtocolServicesProvider } from './protocol-view/ProtocolServicesProvider.tsx';
import { ProtocolView } from './protocol-view/ProtocolView.tsx';
import { isProtocolHash, parseStepHash, stepHash } from './protocol-view/step-link.ts';

/**
 * Two views under one header: the study view (lesson on the left, the learner's code and its
 * results on the right) and the protocol view (stepper, byte inspector, failure lab), chosen by
 * the address's hash. Both stay mounted once shown, so switching keeps the editor and the stepper
 * as they were; the live panel follows below whichever is showing.
 */
export function App() {
  const view = useHashView();
  const [protocolShown, setProtocolShown] = useState(view === 'protocol');
  useEffect(() => {
    if (view === 'protocol') setProtocolShown(true);
    // A section link (#live-panel) from the other view: scroll once the section is visible.
    else if (window.location.hash.length > 1) document.getElementById(window.location.hash.slice(1))?.scrollIntoView();
  }, [view]);

  // Keep the address on the step shown, so it can be copied as a deep link.
  const onCursorChange = useCallback((cursor: number) => {
    if (isProtocolHash(window.location.hash) && parseStepHash(window.location.hash) !== cursor) {
      window.history.replaceState(null, '', stepHash(cursor));
    }
  }, []);

  return (
    <ProtocolServicesProvider>
      <div className="app">
        <Header view={view} />
        <main className="app-main">
          <ProgressNotices />
          <div className="app-main__study" hidden={view !== 'study'}>
            <LessonPane />
            <ExerciseWorkspace />
          </div>
          {protocolShown && (
            <div className="app-main__protocol" hidden={view !== 'protocol'}>
              <ProtocolView initialStep={parseStepHash(window.location.hash)} onCursorChange={onCursorChange} />
            </div>
          )}
          <LivePanel />
        </main>
      </div>
    </ProtocolServicesProvider>
  );
}
