import { EditorPlaceholder } from './components/EditorPlaceholder.tsx';
import { Header } from './components/Header.tsx';
import { LessonPane } from './components/LessonPane.tsx';
import { LivePanel } from './components/LivePanel.tsx';

export function App() {
  return (
    <div className="app">
      <Header />
      <main className="app-main">
        <div className="app-main__study">
          <LessonPane />
          <EditorPlaceholder />
        </div>
        <LivePanel />
      </main>
    </div>
  );
}
