// The speaker-notes pane: the note for what the stepper on the stage shows now (the stdio stepper,
// or the HTTP stepper with the notes of its failure cards), then the lesson notes of one exercise
// (the one the learner view has selected, switchable here) in the lesson's heading order.

import { useId, useMemo, useState } from 'react';
import { localized } from '../../exercise/catalogue.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { useExerciseText } from '../hooks/use-exercise-text.ts';
import { useLocale } from '../hooks/use-locale.ts';
import { useStore } from '../hooks/use-store.ts';
import { headingTitles, parseMarkdown } from '../../app/exercise/markdown.ts';
import { stepLabel } from '../../app/protocol/arrow-text.ts';
import { useProtocolServices } from '../protocol/ProtocolServicesProvider.tsx';
import { useProtocolText } from '../protocol/use-protocol-text.ts';
import { HTTP_CARD_IDS } from '../../app/failure-lab/http-cards.ts';
import { httpNote, lessonNotes, notesFor, stdioNote } from '../../app/presenter/notes.ts';
import { httpSteps, type HttpSessionStore } from '../../app/protocol/http-session-store.ts';
import { sceneOfConfig } from '../../app/protocol/scenes.ts';
import { usePresenterText } from './use-presenter-text.ts';

/** `http`: the HTTP stepper's store while it is on the stage; `onExercise`: an exercise was chosen here. */
export function NotesPane({ http = null, onExercise }: { http?: HttpSessionStore | null; onExercise?(exerciseId: string): void }) {
  const headingId = useId();
  const t = usePresenterText();
  return (
    <aside className="presenter-notes" aria-labelledby={headingId} data-testid="speaker-notes">
      <h2 id={headingId}>{t('notes.heading')}</h2>
      {http === null ? <StdioNow /> : <HttpNow store={http} />}
      <LessonNotes onExercise={onExercise} />
    </aside>
  );
}

function StdioNow() {
  const t = usePresenterText();
  const tp = useProtocolText();
  const locale = useLocale();
  const { stepper } = useProtocolServices();
  const { cursor, records, config } = useStore(stepper);
  const notes = notesFor(locale);
  // The scene the stepper runs picks the notes; a lab or era card's own run has none of its own.
  const scene = sceneOfConfig(config);
  const shown = records[cursor - 1];
  const what = scene === null ? t('notes.scenario') : shown ? stepLabel(tp, shown.step) : t('notes.intro');

  return (
    <section className="presenter-notes__now" aria-live="polite">
      <h3>
        {cursor > 0 && scene !== null ? `${cursor}. ` : ''}
        {t('notes.step', { step: what })}
      </h3>
      <p data-testid="speaker-note" data-step={cursor} data-scene={scene ?? 'none'}>
        {stdioNote(notes, scene, cursor)}
      </p>
    </section>
  );
}

/** The HTTP stepper's note for its last finished step, and the HTTP failure cards' notes. */
function HttpNow({ store }: { store: HttpSessionStore }) {
  const t = usePresenterText();
  const tp = useProtocolText();
  const locale = useLocale();
  const { cursor, era } = useStore(store);
  const notes = notesFor(locale);
  const step = httpSteps(era)[cursor - 1];
  return (
    <>
      <section className="presenter-notes__now" aria-live="polite">
        <h3>
          {step ? `${cursor}. ` : ''}
          {t('notes.step', { step: step ? tp(`http.steps.${step}`) : t('notes.intro') })}
        </h3>
        <p data-testid="speaker-note" data-step={cursor} data-transport="http" data-era={era}>
          {httpNote(notes, era, cursor)}
        </p>
      </section>
      {/* The failure cards break a handshake-era session: none of them applies to 2026-07-28. */}
      {era === 'handshake' && (
        <details className="presenter-notes__lessons" data-testid="http-card-notes">
          <summary>{t('notes.httpCards')}</summary>
          <dl>
            {HTTP_CARD_IDS.map((id) => (
              <div key={id} className="presenter-notes__lesson-step" data-card={id}>
                <dt>{tp(`httpCards.cards.${id}.title`)}</dt>
                <dd>{notes.http.cards[id]}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </>
  );
}

/** The exercise (the station) the presenter is at: choosing one calls `onExercise`, and its lesson notes fold out below. */
function LessonNotes({ onExercise }: { onExercise?(exerciseId: string): void }) {
  const t = usePresenterText();
  const locale = useLocale();
  const exercises = useExercises();
  const { selectedId } = useStore(exercises);
  const [chosen, setChosen] = useState<string | null>(null);
  const selectId = useId();
  const exerciseId = chosen ?? selectedId ?? exercises.exercises[0]?.meta.id ?? null;
  // The lesson's headings name the notes: its text loads per exercise and language.
  useExerciseText(exercises, exerciseId, locale);
  const exercise = exerciseId === null ? undefined : exercises.find(exerciseId);
  const content = exercise ? (exercise.content[locale] ?? exercise.content.en ?? '') : '';
  const titles = useMemo(() => headingTitles(parseMarkdown(content)), [content]);
  const listed = exercise ? lessonNotes(notesFor(locale), exercise.meta.id, Object.keys(titles)) : [];

  return (
    <>
      <div className="presenter-notes__station" data-testid="presenter-station">
        <label htmlFor={selectId}>{t('notes.exercise')} </label>
        <select
          id={selectId}
          value={exerciseId ?? ''}
          aria-describedby={onExercise ? `${selectId}-hint` : undefined}
          onChange={(event) => {
            setChosen(event.target.value);
            onExercise?.(event.target.value);
          }}
        >
          {exercises.exercises.map((item) => (
            <option key={item.meta.id} value={item.meta.id}>
              {item.meta.order}. {localized(item.meta.title, locale)}
            </option>
          ))}
        </select>
        {onExercise && (
          <p className="hint" id={`${selectId}-hint`}>
            {t('notes.stationHint')}
          </p>
        )}
      </div>
      <details className="presenter-notes__lessons" data-testid="lesson-notes">
        <summary>{t('notes.lessons')}</summary>
        {listed.length === 0 ? (
          <p className="hint">{t('notes.empty')}</p>
        ) : (
          <dl>
            {listed.map((note) => (
              <div key={note.id} className="presenter-notes__lesson-step" data-lesson-step={note.id}>
                <dt>{titles[note.id] ?? note.id}</dt>
                <dd>{note.text}</dd>
              </div>
            ))}
          </dl>
        )}
      </details>
    </>
  );
}
