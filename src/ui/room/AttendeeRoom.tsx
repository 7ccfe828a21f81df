import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { joinCodeOfHash } from '../../app/router.ts';
import { MAX_NAME_CHARS } from '../../runtime/room-messages.ts';
import { useStore } from '../hooks/use-store.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { attendeeStoreFor, type AttendeeStore, type AttendeeStoreOptions } from '../../app/room/attendee-store.ts';

/**
 * An attendee's side of the room: join with the code and a name, then what the room sees of them.
 * `shared`: the page was served by a workshop's shared bridge (else there is no room to join).
 */
export function AttendeeRoom({ shared, session }: { shared: boolean; session: AttendeeStoreOptions['session'] }) {
  const { t } = useTranslation('room');
  const exercises = useExercises();
  const [attendee] = useState(() => attendeeStoreFor({ exercises, session }));
  if (!shared) {
    return (
      <div className="room__none">
        <p>{t('none.text')}</p>
        <p className="hint">
          {t('none.instructor')} <code>npm start -- --host</code>
        </p>
      </div>
    );
  }
  return <AttendeeStanding store={attendee} />;
}

function AttendeeStanding({ store }: { store: AttendeeStore }) {
  const { t } = useTranslation('room');
  const { membership, joining, problem, outbox, forgotten } = useStore(store);
  if (membership === null) return <JoinForm store={store} joining={joining} problem={problem} forgotten={forgotten} />;
  return (
    <div className="room__standing">
      <p className="room__in" role="status">
        {t('in.text', { name: membership.name })}
      </p>
      <p>{t('in.shared')}</p>
      {problem?.reason === 'not-saved' && <p className="notice is-warning">{t('join.notSaved')}</p>}
      <p className="hint" role="status">
        {outbox === null || outbox.pending === 0
          ? t('in.upToDate')
          : outbox.status === 'waiting'
            ? t('in.waiting', { count: outbox.pending })
            : t('in.sending', { count: outbox.pending })}
      </p>
      <a className="room__go" href="#workspace">
        {t('in.toExercises')}
      </a>
    </div>
  );
}

function JoinForm({ store, joining, problem, forgotten }: { store: AttendeeStore; joining: boolean; problem: ReturnType<AttendeeStore['getSnapshot']>['problem']; forgotten: boolean }) {
  const { t } = useTranslation('room');
  const [code, setCode] = useState(() => joinCodeOfHash(window.location.hash));
  // A join link opened in a tab already on the form (a second scan of the QR code) fills its code in.
  useEffect(() => {
    const listener = () => {
      const linked = joinCodeOfHash(window.location.hash);
      if (linked !== '') setCode(linked);
    };
    window.addEventListener('hashchange', listener);
    return () => window.removeEventListener('hashchange', listener);
  }, []);
  const [name, setName] = useState('');
  const codeId = useId();
  const nameId = useId();
  const errorId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void store.join(code, name);
  };
  const error = problem === null || problem.reason === 'not-saved' ? null : t(`join.problem.${problem.reason}`, { detail: problem.detail });
  return (
    <form className="room__join" onSubmit={submit} aria-describedby={error === null ? undefined : errorId}>
      {forgotten && <p className="notice is-warning">{t('join.forgotten')}</p>}
      <p>{t('join.intro')}</p>
      <label htmlFor={codeId}>{t('join.code')}</label>
      <input id={codeId} className="room__code-input" value={code} onChange={(event) => setCode(event.target.value)} autoComplete="off" autoCapitalize="characters" spellCheck={false} required maxLength={16} />
      <label htmlFor={nameId}>{t('join.name')}</label>
      <input id={nameId} value={name} onChange={(event) => setName(event.target.value)} autoComplete="nickname" required maxLength={MAX_NAME_CHARS * 2} />
      <p className="hint">{t('join.privacy')}</p>
      <button type="submit" className="primary" disabled={joining}>
        {joining ? t('join.joining') : t('join.submit')}
      </button>
      {error !== null && (
        <p id={errorId} className="is-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
