import { ExerciseWorkspace } from './components/ExerciseWorkspace.tsx';
import { Header } from './components/Header.tsx';
import { LessonPane } from './components/LessonPane.tsx';
import { LivePanel } from './components/LivePanel.tsx';
import { ProgressNotices } from './components/ProgressNotices.tsx';

/**
 * The study area fills the window (lesson on the left, the learner's code and its results on the
 * right); the live panel follows below it, one link or scroll away.
 */
export function App() {
  return (
    <div className="app">
      <Header />
      <main className="app-main">
        <ProgressNotices />
        <div className="app-main__study">
          <LessonPane />
          <ExerciseWorkspace />
        </div>
        <LivePanel />
      </main>
    </div>
  );
}
