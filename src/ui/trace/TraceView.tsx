// The trace view (#trace): open a recorded trace (a file, a drop, or a #trace= link) and read it
// with the live panel's own views. The trace is a read-only "host": its store is a LogSource, so
// the message log (with Find), the byte inspector, chunk boundaries and reader replay work on it
// exactly as on a running server. Loaded only when the view is first shown.

import { Suspense, useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { LogFindStore } from '../../app/live-session/log-find-store.ts';
import { isTraceHash, readTraceHash } from '../../app/trace/trace-link.ts';
import { TraceStore } from '../../app/trace/trace-store.ts';
import { workerTraceLoader } from '../../app/trace/trace-worker-loader.ts';
import { sizeText } from '../../app/trace/size-text.ts';
import { LogSourceContext } from '../hooks/log-source-context.ts';
import type { LogSource } from '../../app/live-session/log-source.ts';
import { useStore } from '../hooks/use-store.ts';
import LogBody from '../live-session/LogBody.tsx';
import { TraceDiagram } from './TraceDiagram.tsx';
import { TraceLinkButton } from './TraceLinkButton.tsx';
import { TraceSummary } from './TraceSummary.tsx';
import { useTraceText } from './use-trace-text.ts';
import './trace-view.css';

export default function TraceView() {
  const t = useTraceText();
  const [store] = useState(() => new TraceStore(workerTraceLoader));
  const [find] = useState(() => new LogFindStore());
  const state = useStore(store);
  const { trace, reading, loading, failure } = state;
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [linkProblem, setLinkProblem] = useState<string | null>(null);
  const ids = { heading: useId() };

  const open = async (name: string, source: Blob | string) => {
    setLinkProblem(null);
    const outcome = await store.open(name, source);
    if (outcome === 'opened') find.reset();
  };

  // A #trace= link opens its trace: on arrival, and whenever the hash changes to another one.
  useEffect(() => {
    const fromHash = async () => {
      const hash = window.location.hash;
      if (!isTraceHash(hash)) return;
      const result = await readTraceHash(hash);
      if (result.ok) await open('link', result.text);
      else setLinkProblem(result.reason);
    };
    void fromHash();
    window.addEventListener('hashchange', fromHash);
    return () => window.removeEventListener('hashchange', fromHash);
    // Once: `open` only uses the stores made once above.
  }, []);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void open(file.name, file);
  };

  return (
    <section className="pane trace-view" aria-labelledby={ids.heading} data-testid="trace-view">
      <h2 id={ids.heading}>{t('heading')}</h2>
      <p className="hint">{t('intro')}</p>
      <div
        className={`trace-drop${dragging ? ' is-dragging' : ''}`}
        data-testid="trace-drop"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <button type="button" className="primary" onClick={() => fileInput.current?.click()} data-testid="trace-open">
          {t('open')}
        </button>
        {/* The button above is the control; the input only brings the browser's file chooser. */}
        <input
          ref={fileInput}
          hidden
          type="file"
          accept=".jsonl,.json,.trace,.txt,application/json,text/plain"
          data-testid="trace-file-input"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void open(file.name, file);
            // The same file chosen again must open again.
            event.target.value = '';
          }}
        />
        <span className="hint">{dragging ? t('dropActive') : t('drop')}</span>
      </div>

      {loading && (
        <div className="trace-loading" data-testid="trace-loading">
          <progress value={loading.bytesRead} max={Math.max(1, loading.totalBytes)} aria-label={t('loading', { name: loading.name, read: sizeText(loading.bytesRead), total: sizeText(loading.totalBytes), events: loading.events })} />
          <span role="status" aria-live="polite">
            {t('loading', { name: loading.name, read: sizeText(loading.bytesRead), total: sizeText(loading.totalBytes), events: loading.events })}
          </span>
          <button type="button" onClick={() => store.abandon()}>
            {t('cancel')}
          </button>
        </div>
      )}
      {failure && (
        <div className="notice is-error trace-failure" role="alert" data-testid="trace-error">
          <p>{t(failure.code === 'read' ? 'failedRead' : 'failed', { name: failure.name, message: failure.message })}</p>
          <button type="button" onClick={() => store.dismissFailure()}>
            {t('dismiss')}
          </button>
        </div>
      )}
      {linkProblem && (
        <p className="notice is-error" role="alert" data-testid="trace-link-error">
          {t('link.bad', { reason: linkProblem })}
        </p>
      )}

      {trace === null && reading === null ? (
        <p className="hint" data-testid="trace-none">
          {t('none')}
        </p>
      ) : (
        <>
          {trace !== null && reading === null && (
            <>
              <TraceSummary trace={trace} />
              <TraceLinkButton trace={trace} />
            </>
          )}
          {/*
            The rows of a trace still being read show at once, from a log of its own; the trace shown
            before stays mounted, set aside, so a file that turns out bad gives it back as it was
            (rows opened, scroll). One keyed list: the reading log's view becomes the opened trace's (same
            key), so finishing keeps the learner's place.
          */}
          {[
            trace !== null && <TraceLog key={trace.serial} source={store} find={find} hidden={reading !== null} />,
            reading !== null && <TraceLog key={reading.serial} source={reading.source} find={find} reading />,
          ]}
          {trace !== null && reading === null && <LaterDiagram key={trace.serial} store={store} />}
        </>
      )}
    </section>
  );
}

interface TraceLogProps {
  source: LogSource;
  find: LogFindStore;
  /** The trace shown before, while another is read. */
  hidden?: boolean;
  /** Rows of a trace still being read. */
  reading?: boolean;
}

function TraceLog({ source, find, hidden = false, reading = false }: TraceLogProps) {
  const t = useTraceText();
  const id = useId();
  const { log } = useStore(source);
  return (
    <LogSourceContext.Provider value={source}>
      {/* Set aside, not display:none: a list with no size would drop its rows, and with them their state. */}
      <section
        className={`panel-section message-log trace-log${hidden ? ' trace-log--set-aside' : ''}`}
        aria-labelledby={id}
        data-testid={hidden ? undefined : 'trace-log'}
        aria-busy={reading}
        aria-hidden={hidden || undefined}
        inert={hidden}
      >
        <div className="panel-section__header">
          <h3 id={id}>{t('log.heading')}</h3>
          <span className="hint" data-testid={hidden ? undefined : 'trace-log-count'}>
            {t(reading ? 'log.countSoFar' : 'log.count', { count: log.entries.length })}
          </span>
        </div>
        <LogBody find={find} labelledBy={id} follow={false} />
      </section>
    </LogSourceContext.Provider>
  );
}

/**
 * The diagram of a trace just opened, drawn in the task after the one that shows its log: both
 * walk every entry, and together they were the longest task of opening a 100 MB trace.
 */
function LaterDiagram({ store }: { store: TraceStore }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), 0);
    return () => clearTimeout(timer);
  }, []);
  // Its own Suspense: the diagram's lazy parts load on its first showing, and waiting for them must
  // not hide the whole view (the nearest boundary above is the app's, around the view).
  return shown ? (
    <Suspense fallback={null}>
      <TraceDiagram store={store} />
    </Suspense>
  ) : null;
}
