import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { attendeeStoreFor, type AttendeeStoreOptions } from '../../app/room/attendee-store.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { useStore } from '../hooks/use-store.ts';
import { stationText } from './station-text.ts';
import './room.css';

/**
 * The instructor's "Send everyone to…", on an attendee's page whatever view it shows: where, and
 * Go or Stay. Focus moves to Go when it appears (the attendee may be typing: Escape or Stay keeps
 * them where they are); it is a region, not a modal dialog, so nothing else on the page is blocked.
 */
export function RoomInvitePrompt({ session }: Pick<AttendeeStoreOptions, 'session'>) {
  const { t } = useTranslation('room');
  const exercises = useExercises();
  const store = attendeeStoreFor({ exercises, session });
  const { invitation } = useStore(store);
  const go = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (invitation !== null) go.current?.focus();
  }, [invitation]);
  if (invitation === null) return null;
  return (
    <section
      className="room-invite"
      role="region"
      aria-label={t('invite.label')}
      onKeyDown={(event) => {
        if (event.key === 'Escape') store.declineInvitation();
      }}
    >
      <p>{t('invite.text', { where: stationText(t, invitation.station) })}</p>
      <button ref={go} type="button" className="primary" onClick={() => store.acceptInvitation()}>
        {t('invite.go')}
      </button>
      <button type="button" onClick={() => store.declineInvitation()}>
        {t('invite.stay')}
      </button>
    </section>
  );
}

export default RoomInvitePrompt;
