import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { attendeeStoreFor, type AttendeeStore, type AttendeeStoreOptions } from '../../app/room/attendee-store.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { useStore } from '../hooks/use-store.ts';
import { useProtocolServices } from '../protocol/ProtocolServicesProvider.tsx';
import { frameToAsk } from '../../app/room/help-frame.ts';
import { stationText } from './station-text.ts';
import './room.css';

/**
 * An attendee's line to the room, above whatever view shows: who they are in it and "Ask for help"
 * (which sends the open file and its last results, and nothing else); and, when the instructor
 * sends everyone somewhere, where, with Go or Stay. Focus moves to Go when that appears (Escape
 * or Stay keeps the attendee where they are); it is a region, not a modal: nothing is blocked.
 */
export function RoomBar({ session }: Pick<AttendeeStoreOptions, 'session'>) {
  const exercises = useExercises();
  const store = attendeeStoreFor({ exercises, session });
  const { membership, invitation } = useStore(store);
  if (membership === null) return null;
  return invitation === null ? <HelpLine store={store} name={membership.name} /> : <Invitation store={store} station={invitation.station} />;
}

function HelpLine({ store, name }: { store: AttendeeStore; name: string }) {
  const { t } = useTranslation('room');
  const { help } = useStore(store);
  const { ui, stepper } = useProtocolServices();
  return (
    <section className="room-bar" aria-label={t('bar.label')}>
      <p>{t('bar.in', { name })}</p>
      <button type="button" onClick={() => store.followPresenter()} title={t('bar.followHint')}>
        {t('bar.follow')}
      </button>
      <button type="button" onClick={() => void store.askForHelp(frameToAsk(ui, stepper))} disabled={help?.status === 'sending'}>
        {t('help.ask')}
      </button>
      <span role="status" className={help?.status === 'failed' ? 'is-error' : undefined}>
        {help === null
          ? ''
          : help.status === 'sending'
            ? t('help.sending')
            : help.status === 'queued'
              ? t(help.withFrame ? 'help.queuedWithFrame' : 'help.queued', { position: help.position, exercise: help.exercise })
              : help.status === 'too-soon'
                ? t('help.tooSoon', { count: help.seconds })
                : t('help.failed', { detail: help.detail })}
      </span>
    </section>
  );
}

function Invitation({ store, station }: { store: AttendeeStore; station: string }) {
  const { t } = useTranslation('room');
  const go = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    go.current?.focus();
  }, [station]);
  return (
    <section
      className="room-bar room-bar--invite"
      aria-label={t('invite.label')}
      onKeyDown={(event) => {
        if (event.key === 'Escape') store.declineInvitation();
      }}
    >
      <p>{t('invite.text', { where: stationText(t, station) })}</p>
      <button ref={go} type="button" className="primary" onClick={() => store.acceptInvitation()}>
        {t('invite.go')}
      </button>
      <button type="button" onClick={() => store.declineInvitation()}>
        {t('invite.stay')}
      </button>
    </section>
  );
}

export default RoomBar;
