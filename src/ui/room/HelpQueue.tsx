import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { closeQuestion, fetchQuestion, type OpenedQuestion } from '../../app/room/room-client.ts';
import type { HelpQueueItem } from '../../runtime/room-messages.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { useLazyMonaco } from '../hooks/use-lazy-monaco.ts';
import { minutesText } from './station-text.ts';
import { inspectTargetOf } from '../../app/room/help-frame.ts';
import { ByteInspector } from '../protocol/ByteInspector.tsx';

/** The instructor's help queue: the open questions, oldest first; one opened beside its failures. */
export function HelpQueue({ roomKey, items, now }: { roomKey: string; items: readonly HelpQueueItem[]; now: number }) {
  const { t } = useTranslation('room');
  const [opened, setOpened] = useState<OpenedQuestion | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const deps = { origin: window.location.origin };
  const open = async (id: number) => {
    setProblem(null);
    try {
      setOpened(await fetchQuestion(roomKey, id, deps));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  const answered = async (id: number) => {
    try {
      await closeQuestion(roomKey, id, deps);
      setOpened(null);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <section className="room__help" aria-labelledby="room-help-heading">
      <h3 id="room-help-heading">{t('queue.heading', { count: items.length })}</h3>
      {items.length === 0 ? (
        <p className="hint">{t('queue.empty')}</p>
      ) : (
        <ol className="room__help-list">
          {items.map((item) => (
            <li key={item.id}>
              <button type="button" aria-pressed={opened?.id === item.id} onClick={() => void open(item.id)}>
                {t('queue.item', { name: item.name, exercise: item.exercise, file: item.file, failing: item.failing, ago: minutesText(t, now - item.at) })}
              </button>
            </li>
          ))}
        </ol>
      )}
      {problem !== null && (
        <p className="is-error" role="alert">
          {t('queue.failed', { detail: problem })}
        </p>
      )}
      {opened !== null && <Question key={opened.id} question={opened} onAnswered={() => void answered(opened.id)} />}
    </section>
  );
}

function Question({ question, onAnswered }: { question: OpenedQuestion; onAnswered: () => void }) {
  const { t } = useTranslation('room');
  const store = useExercises();
  const container = useRef<HTMLDivElement>(null);
  const [editorProblem, setEditorProblem] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  // The attendee's file in a read-only editor (Monaco, loaded with the first question opened).
  useLazyMonaco(
    container,
    store,
    (_module, monaco, element) => {
      const model = monaco.editor.createModel(question.code, 'typescript', monaco.Uri.parse(`inmemory://help/${question.id}/${question.file}`));
      const editor = monaco.editor.create(element, {
        model,
        readOnly: true,
        automaticLayout: true,
        minimap: { enabled: false },
        fontSize: 13,
        scrollBeyondLastLine: false,
        ariaLabel: t('queue.editor', { name: question.name, file: question.file }),
      });
      return () => {
        editor.dispose();
        model.dispose();
      };
    },
    setEditorProblem,
  );
  const failures = question.results.filter((result) => result.status !== 'pass');
  // A question about frames carries the frame: shown as the attendee's byte inspector showed it.
  const frame = useMemo(() => (question.frame === undefined ? null : inspectTargetOf(question.frame)), [question.frame]);
  return (
    <article className="room__question" aria-labelledby={`room-question-${question.id}`}>
      <h4 id={`room-question-${question.id}`} ref={heading} tabIndex={-1}>
        {t('queue.question', { name: question.name, exercise: question.exercise, file: question.file })}
      </h4>
      <div className="room__question-body">
        <div className="room__question-code" ref={container} data-testid="help-editor">
          {editorProblem !== null && <pre>{question.code}</pre>}
        </div>
        <div className="room__question-results">
          <p>{question.results.length === 0 ? t('queue.noRun') : t('queue.results', { failing: failures.length, total: question.results.length })}</p>
          <ul>
            {failures.map((result) => (
              <li key={result.name}>
                <strong>{result.name}</strong>
                {result.message !== undefined && <pre>{result.message}</pre>}
              </li>
            ))}
          </ul>
        </div>
      </div>
      {frame !== null && (
        <section className="room__question-frame" aria-labelledby={`room-question-frame-${question.id}`} data-testid="help-frame">
          <h5 id={`room-question-frame-${question.id}`}>{t('queue.frame')}</h5>
          <ByteInspector target={frame} showReplay={false} />
        </section>
      )}
      <button type="button" onClick={onAnswered}>
        {t('queue.answered')}
      </button>
    </article>
  );
}
